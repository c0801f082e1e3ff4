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
  returned     FUNCTION() returns a version code    cudnnGetVersion
  encoded      FUNCTION(&code)                      ncclGetVersion
Without release lines the library's major is CUDA's (cuBLAS 12.4 is CUDA
12); with them the library's own version says (cuFFT 11.2 is CUDA 12);
with cuda_release the candidate says the CUDA it was built with (cuDNN 9
and NCCL 2 are each built for several CUDA majors).
"""

from records import include_lines, param_decl

# libraryPropertyType (library_types.h): MAJOR_VERSION, MINOR_VERSION,
# PATCH_LEVEL
PROPERTIES = (0, 1, 2)


def emit_stub_header(spec, header_note):
    guard = "CUDASTUB_%s_STUB_H" % spec.library.upper()
    out = [header_note, "#ifndef %s" % guard, "#define %s" % guard, ""]
    out += include_lines(spec.context + spec.headers, spec.predefine)
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
    types = ", ".join(param_decl(p.spelling, "").rstrip() for p in fn.params)
    out = [header_note, "", "#define _GNU_SOURCE", "#include <dlfcn.h>", "",
           '#include "%s_stub.h"' % lib, ""]
    out += ["/* The library's own version, as %s gives it: 0 when it answered. */" % name,
            "static int own_version(void *handle, int own[3])", "{",
            "\t%s (*query)(%s);" % (fn.ret, types)]
    if form == "major_minor":
        value = param_decl(fn.params[0].spelling, "").rstrip()[:-1].strip()
        out += ["\t%s major = 0, minor = 0;" % value, "",
                "\t*(void **)&query = cudastub_probe_symbol(handle, \"%s\");" % name,
                "\tif (!query || query(&major, &minor) != 0)", "\t\treturn -1;",
                "\town[0] = (int)major;", "\town[1] = (int)minor;", "\town[2] = 0;",
                "\treturn 0;", "}"]
    elif form == "returned":
        out += ["", "\t*(void **)&query = cudastub_probe_symbol(handle, \"%s\");" % name,
                "\tif (!query)", "\t\treturn -1;",
                "\treturn cudastub_version_code_split((long long)query(), own);", "}"]
    elif form == "encoded":
        out += ["\tint code = 0;", "",
                "\t*(void **)&query = cudastub_probe_symbol(handle, \"%s\");" % name,
                "\tif (!query || query(&code) != 0)", "\t\treturn -1;",
                "\treturn cudastub_version_code_split(code, own);", "}"]
    else:
        kind = param_decl(fn.params[0].spelling, "").rstrip()
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
                % ("by its own version" if spec.releases else "its own major and minor"),
                "static int probe_version(void *handle, const char *path, int *major, int *minor)",
                "{", "\tint own[3];", "", "\t(void)path;",
                "\tif (own_version(handle, own) != 0)", "\t\treturn -1;"]
        if spec.releases:
            out += ["\t*major = cudastub_release_of(releases, own);", "\t*minor = 0;",
                    "\treturn *major > 0 ? 0 : -1;", "}"]
        else:
            out += ["\t*major = own[0];", "\t*minor = own[1];", "\treturn 0;", "}"]
    out += ["", "struct cudastub_library cudastub_%s_library = {" % lib,
            "\tCUDASTUB_%s_DESCRIPTION," % lib.upper(),
            "\t.probe_version = probe_version,"]
    if spec.releases or spec.cuda_release:
        out.append("\t.own_version = own_version,")
    out += ["};", ""]
    return "\n".join(out)


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
