"""A library its spec describes alone (spec: version_query): the two files
the runtime, NVRTC and the driver have written by hand, generated.

  <lib>_stub.h      what the generated halves share: the library's headers,
                    the loader, the generated declarations
  <lib>_library.c   the library for the loader: its description, its
                    version probe, and when its versions are not CUDA's,
                    the release each of them belongs to

The probe asks a candidate its version the way the spec says:
  major_minor  FUNCTION(&major, &minor)            nvJitLinkVersion
  property     FUNCTION(MAJOR_VERSION, &value)...  cublasGetProperty
  text         FUNCTION(buffer, length): "12.550.163.01"  nvmlSystemGetNVMLVersion
  value        FUNCTION(&value)                    cuptiGetVersion
  number       FUNCTION(&value), major * 1000 + minor * 10   cuFileGetVersion
  returned     FUNCTION() returns a version code    cudnnGetVersion
  encoded      FUNCTION(&code)                      ncclGetVersion
  struct       FUNCTION() returns &{major, minor, build}  nppGetLibVersion
Without release lines the library's major is CUDA's (cuBLAS 12.4 is CUDA
12); with them the library's own version says (cuFFT 11.2 is CUDA 12);
with cuda_release the candidate says the CUDA it was built with (cuDNN 9
and NCCL 2 are each built for several CUDA majors).
"""

from records import param_decl

# libraryPropertyType (library_types.h): MAJOR_VERSION, MINOR_VERSION,
# PATCH_LEVEL
PROPERTIES = (0, 1, 2)


def emit_stub_header(spec, header_note):
    guard = "CUDASTUB_%s_STUB_H" % spec.library.upper()
    out = [header_note, "#ifndef %s" % guard, "#define %s" % guard, ""]
    # the library's declarations of the stub's ABI, from its record
    # (generated/<lib>/cu<major>/, by the include path)
    out += ['#include "%s_declarations.h"' % spec.library]
    out += ["", '#include "loader.h"', '#include "%s_generated.h"' % spec.library, "",
            "extern struct cudastub_library cudastub_%s_library;" % spec.library, "", "#endif", ""]
    return "\n".join(out)


def emit_library_c(spec, abi, header_note):
    """abi: a record that declares the version function (its prototype does
    not change between majors)."""
    lib = spec.library
    name, form = spec.version_query
    if name not in abi.functions:
        raise SystemExit("version_query %s: CUDA %d.%d's headers do not declare it"
                         % (name, abi.major, abi.minor))
    fn = abi.functions[name]
    ret, types = fn.ret, ", ".join(param_decl(p.spelling, "").rstrip() for p in fn.params) or "void"
    if spec.version_library:
        # another library's function, whose types this library's
        # declarations lack: the ABI's own (an enum is an int)
        ret, types = _as_ints(fn.ret_canonical, abi), ", ".join(
            _as_ints(p.canonical, abi) for p in fn.params) or "void"
    out = [header_note, "", "#define _GNU_SOURCE", "#include <dlfcn.h>", "#include <stddef.h>",
           "", '#include "%s_stub.h"' % lib, ""]
    if form == "struct":
        out += _version_struct(fn, abi)
    whose = ("the version of the %s it links" % spec.version_library
             if spec.version_library else "the library's own version")
    out += [("/* %s, as %s gives it: 0 when it answered. */"
             % (whose[0].upper() + whose[1:], name) if form != "none" else
             "/* No version to read: 0 when the candidate exports %s, as the library does. */"
             % name),
            "static int own_version(void *handle, int own[3])", "{",
            "\t%s (*query)(%s);" % ("const struct version *" if form == "struct" else ret,
                                    types)]
    if form == "none":
        # no version query: finding the function says the candidate is the
        # library, whose one ABI every release shares (spec: version_query)
        out += ["", "\t(void)own;",
                "\t*(void **)&query = cudastub_probe_symbol(handle, \"%s\");" % name,
                "\treturn query ? 0 : -1;", "}"]
    elif form == "major_minor":
        value = param_decl(fn.params[0].spelling, "").rstrip()[:-1].strip()
        out += ["\t%s major = 0, minor = 0;" % value, "",
                "\t*(void **)&query = cudastub_probe_symbol(handle, \"%s\");" % name,
                "\tif (!query || query(&major, &minor) != 0)", "\t\treturn -1;",
                "\town[0] = (int)major;", "\town[1] = (int)minor;", "\town[2] = 0;",
                "\treturn 0;", "}"]
    elif form == "text":
        out += ["\tchar text[CUDASTUB_VERSION_TEXT_SIZE];", "",
                "\t*(void **)&query = cudastub_probe_symbol(handle, \"%s\");" % name,
                "\tif (!query || query(text, sizeof text) != 0)", "\t\treturn -1;",
                "\treturn cudastub_version_from_text(text, sizeof text, own);", "}"]
    elif form == "value":
        value = param_decl(fn.params[0].spelling, "").rstrip()[:-1].strip()
        out += ["\t%s value = 0;" % value, "",
                "\t*(void **)&query = cudastub_probe_symbol(handle, \"%s\");" % name,
                "\tif (!query || query(&value) != 0)", "\t\treturn -1;",
                "\town[0] = (int)value;", "\town[1] = 0;", "\town[2] = 0;",
                "\treturn 0;", "}"]
    elif form == "number":
        out += ["\tint value = 0;", "",
                "\t*(void **)&query = cudastub_probe_symbol(handle, \"%s\");" % name,
                "\tif (!query || query(&value)%s != 0)" % ("." + spec.result_field
                                                          if spec.result_field else ""),
                "\t\treturn -1;",
                "\town[0] = value / 1000;", "\town[1] = value % 1000 / 10;", "\town[2] = 0;",
                "\treturn 0;", "}"]
    elif form == "returned":
        out += ["", "\t*(void **)&query = cudastub_probe_symbol(handle, \"%s\");" % name,
                "\tif (!query)", "\t\treturn -1;",
                "\treturn cudastub_version_code_split((long long)query(), own);", "}"]
    elif form == "struct":
        out += ["\tconst struct version *version;", "",
                "\t*(void **)&query = cudastub_probe_symbol(handle, \"%s\");" % name,
                "\tif (!query || !(version = query()))", "\t\treturn -1;",
                "\town[0] = version->major;", "\town[1] = version->minor;",
                "\town[2] = version->build;", "\treturn 0;", "}"]
    elif form == "encoded":
        out += ["\tint code = 0;", "",
                "\t*(void **)&query = cudastub_probe_symbol(handle, \"%s\");" % name,
                "\tif (!query || query(&code) != 0)", "\t\treturn -1;",
                "\treturn cudastub_version_code_split(code, own);", "}"]
    else:
        kind = types.split(",")[0].strip()
        out += ["", "\t*(void **)&query = cudastub_probe_symbol(handle, \"%s\");" % name,
                "\tif (!query)", "\t\treturn -1;",
                "\tfor (int k = 0; k < 3; k++)",
                "\t\tif (query((%s)k, &own[k]) != 0)" % kind,
                "\t\t\treturn -1;", "\treturn 0;", "}"]
    out.append("")
    if spec.releases:
        out += ["/* The first version of the library in each CUDA release, newest first */",
                "static const struct cudastub_release_line releases[] = {"]
        out += ["\t{%d, {%s}}," % (major, ", ".join(str(v) for v in (first + (0, 0, 0))[:3]))
                for major, first in spec.releases]
        out += ["\t{0, {0, 0, 0}},", "};", ""]
    if spec.cuda_release:
        out += _probe_cuda_release(spec, abi)
    else:
        out += ["/* The CUDA release a candidate belongs to: %s */"
                % ("the stub's own, the library's ABI being the same in every release"
                   if form == "none" else
                   "by its own version" if spec.releases else "its own major and minor"),
                "static int probe_version(void *handle, const char *path, int *major, int *minor)",
                "{", "\tint own[3];", "", "\t(void)path;",
                "\tif (own_version(handle, own) != 0)", "\t\treturn -1;"]
    if spec.cuda_release:
        pass
    elif form == "none":
        out += ["\t/* one ABI in every release: the stub's own */",
                "\t*major = CUDASTUB_ABI_MAJOR;", "\t*minor = CUDASTUB_ABI_MINOR;",
                "\treturn 0;", "}"]
    else:
        if spec.version_absent:
            # the function missing, not failing: an older release's library
            out[-2:] = ["\tif (own_version(handle, own) != 0) {",
                        "\t\tif (dlsym(handle, \"%s\"))" % name, "\t\t\treturn -1;",
                        "\t\t/* older than the version function: CUDA %d's */" % spec.version_absent,
                        "\t\t*major = %d;" % spec.version_absent, "\t\t*minor = 0;",
                        "\t\treturn 0;", "\t}"]
        if spec.releases:
            out += ["\t*major = cudastub_release_of(releases, own);", "\t*minor = 0;",
                    "\treturn *major > 0 ? 0 : -1;", "}"]
        else:
            out += ["\t*major = own[0];", "\t*minor = own[1];", "\treturn 0;", "}"]
    out += ["", "struct cudastub_library cudastub_%s_library = {" % lib,
            "\tCUDASTUB_%s_DESCRIPTION," % lib.upper(),
            "\t.probe_version = probe_version,"]
    if (spec.releases and form != "none") or spec.cuda_release:
        out.append("\t.own_version = own_version,")
    out += ["};", ""]
    return "\n".join(out)


def _as_ints(t, abi):
    """A canonical type of abi with its enums written as int (their ABI)."""
    enums = set(abi.canonical_enums)
    base = t.replace("const ", "").replace("*", "").strip()
    return t.replace(base, "int") if base in enums else t


def _version_struct(fn, abi):
    """struct version: the three fields of the struct the version function
    returns a pointer to, at the offsets its record gives them."""
    name = fn.ret_canonical.replace("const ", "").replace("*", "").strip()
    fields = {f[3]: f for f in abi.structs[name][1:]}
    out = ["/* %s's major, minor and build, as the record lays them out */" % name,
           "struct version {", "\tint major;", "\tint minor;", "\tint build;", "};"]
    for field in ("major", "minor", "build"):
        off, size, typ, _ = fields[field]
        if typ != "int" or size != 4:
            raise SystemExit("%s.%s: an int expected, the record has %s" % (name, field, typ))
        out.append("_Static_assert(offsetof(struct version, %s) == %d, \"%s.%s\");"
                   % (field, off, name, field))
    return out + [""]


def _probe_cuda_release(spec, abi):
    """probe_version for a library built for several CUDA releases under one
    version of its own (spec: cuda_release): the candidate answers its own
    version (it is the library), then says the CUDA it was built with."""
    how, what = spec.cuda_release
    out = ["/* The CUDA release a candidate belongs to: the one it was built with, as",
           " * %s */" % ("%s() answers it" % what if how == "function" else
                         "its read-only data says after \"%s\"" % what),
           "static int probe_version(void *handle, const char *path, int *major, int *minor)",
           "{", "\tint own[3];"]
    if how == "function":
        if what not in abi.functions or abi.functions[what].params:
            raise SystemExit("cuda_release function %s: not a function of no parameter in CUDA "
                             "%d.%d's headers" % (what, abi.major, abi.minor))
        out += ["\t%s (*cuda)(void);" % abi.functions[what].ret, "", "\t(void)path;",
                "\tif (own_version(handle, own) != 0)", "\t\treturn -1;",
                "\t*(void **)&cuda = cudastub_probe_symbol(handle, \"%s\");" % what,
                "\tif (!cuda)", "\t\treturn -1;",
                "\treturn cudastub_version_decode((int)cuda(), major, minor);", "}"]
    else:
        out += ["", "\t(void)path;", "\tif (own_version(handle, own) != 0)", "\t\treturn -1;",
                "\treturn cudastub_cuda_version_after_marker(handle, \"%s\", major, minor);"
                % what.replace("\\", "\\\\").replace('"', '\\"'), "}"]
    return out
