"""Writes a stub's generated C: its table of rows, typed fallbacks, checks.

Every export has the same shape, fixed by the cost contract and written
once in stubs/loader/bind/forwarder.h, with each architecture's instructions
in stubs/arch/<arch>/forwarder_<arch>.h: on x86-64 the export is
`jmp *slot(%rip)`, one instruction; on aarch64 `adrp`/`ldr`/`br x16`.
What the generator writes per export is data: one line of the library's
rows file (<lib>_rows.h: its name, its majors, its fallback class, and
for the few that have them its typed fallback, adapter and route), which
stubs/loader/bind/table_define.h turns into the table, the slots and the
forwarders, and one line of its check file (<lib>_checks.c: the export
against NVIDIA's declaration). The slot starts at a resolve stub that
hands the slot to the register-preserving cudastub_asm_resolve, and the one
hand-written bind (stubs/loader/bind/loader_bind.c) reads the slot's row: the
loader, then the route, the adapter, the fallback. The generated code makes
no decision of its own.
"""

import re

import records

# the rows' fallback classes (enum cudastub_fallback, table.h)
CODE, NEGATIVE, ZERO, TYPED = "CODE", "NEGATIVE", "ZERO", "TYPED"
# a mask of majors is written as a list the table's macro turns into bits
MAX_MAJORS = 8


def _fallback_body(ret, spec, index, names, negative=False):
    voids = "".join("\t(void)%s;\n" % n for n in names)
    lib = spec.library
    code = "cudastub_loader_unavailable(&cudastub_%s_library,\n\t\t\t\t\t\t&cudastub_%s_rows[%s].gate)" % (
        lib, lib, index)
    if ret == spec.result and spec.result_field:
        return "%s\t%s status;\n\n\tmemset(&status, 0, sizeof status);\n\tstatus.%s = %s;\n\treturn status;\n" % (
            voids, ret, spec.result_field, code)
    if ret == spec.result:
        return "%s\treturn (%s)%s;\n" % (voids, ret, code)
    if negative:
        return "%s\treturn -(%s)%s;\n" % (voids, ret, code)
    if ret == "void":
        return voids
    if ret.endswith("*"):
        return "%s\treturn NULL;\n" % voids
    return "%s\t%s zero;\n\tmemset(&zero, 0, sizeof zero);\n\treturn zero;\n" % (voids, ret)


def c_file_opening(header_note, lib, system, local=()):
    """A generated C file's first lines: the note, _GNU_SOURCE, the system
    headers, then the stub's own header and the further local ones."""
    return ([header_note, "", "#define _GNU_SOURCE"] + ["#include <%s>" % h for h in system]
            + ["", '#include "%s_stub.h"' % lib] + ['#include "%s"' % h for h in local])


SCALARS = ("char", "signed char", "unsigned char", "short", "unsigned short", "int",
           "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "_Bool")


def _returns_in_register(fn):
    """Whether 0 in the integer return register is the function's zero: no
    result (void), a pointer, an integer or an enum; not a float, nor a
    struct (returned in vector registers, or through memory)."""
    ret = fn.ret_canonical.replace("const ", "").replace("volatile ", "").strip()
    return fn.ret == "void" or ret.endswith("*") or ret.startswith("enum ") or ret in SCALARS


def fallback_class(spec, fn, n):
    """The row's fallback class: a function of its own (TYPED) only where
    the spec asks for one, or where 0 or a code in the return register is
    not the answer's shape."""
    if (n in spec.custom_fallback or n in spec.error_name or n in spec.error_string
            or n in spec.fallback_values or n in spec.zero_outputs
            or n in spec.offline_version):
        return TYPED
    if fn.ret == spec.result:
        return TYPED if spec.result_field else CODE
    if n in spec.negative_status:
        return NEGATIVE
    return ZERO if _returns_in_register(fn) else TYPED


def _majors(majors):
    if len(majors) > MAX_MAJORS:
        raise SystemExit("a row holds %d majors at most (stubs/loader/bind/table_define.h)" % MAX_MAJORS)
    return "(%s)" % (", ".join(str(m) for m in sorted(majors)) or "0")


def function_type(fn):
    """The export's type as the table forwards it: RET (*)(TYPE, ...)."""
    params = ", ".join(p.declare("").rstrip() for p in fn.params) or "void"
    return "%s (*)(%s)" % (fn.ret, params)


def _row(n, masks, fallback, kind="EXPORTED", flags="0", typed="0", adapt="0", route="0",
         declared=None, type_=None):
    """A row: declared and type_ are the declaration the export is checked
    against and the type it is forwarded with (none: no header declares
    it)."""
    same, later, other = (_majors(m) for m in masks)
    if type_ is None:
        return "CUDASTUB_ROW_OPAQUE(%s, %s, %s, %s, %s)" % (n, same, later, other, fallback)
    if (kind, flags, typed, adapt, route, declared) == ("EXPORTED", "0", "0", "0", "0", n):
        return "CUDASTUB_ROW(%s, %s, %s, %s, %s, (%s))" % (n, same, later, other, fallback, type_)
    return "CUDASTUB_ROW_X(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, (%s))" % (
        n, same, later, other, fallback, kind, flags, typed, adapt, route, declared, type_)


def row_lines(spec, abi, rows, routed, opaque, opaque_rows):
    """One ABI's rows: (declared, undeclared), each a list of (name, line),
    the functions its headers declare by name, then the exports no header
    declares. rows: name -> (forward, if_present, other_abi) majors;
    routed: the names with routes (routes.py)."""
    lib = spec.library
    declared = []
    for n in sorted(abi.functions):
        cls = fallback_class(spec, abi.functions[n], n)
        typed = _typed_fallback_name(spec, n) if cls == TYPED else "0"
        in_place = (spec.error_in_place and spec.error_in_place[0] == n) or n in spec.in_place
        flags = ("CUDASTUB_ROW_IN_PLACE" if in_place else
                 "CUDASTUB_ROW_ADAPTER_FIRST" if n in spec.adapter_first else "0")
        declared.append((n, _row(n, rows[n], cls,
                                 "HANDWRITTEN" if n in spec.handwritten else "EXPORTED", flags,
                                 typed,
                                 "cudastub_%s_adapt" % lib if n in spec.adapters else "0",
                                 "cudastub_%s_route_%s" % (lib, n) if n in routed else "0",
                                 _declared_as(spec, abi, n), function_type(abi.functions[n]))))
    undeclared = [(n, _row(n, opaque_rows[n], ZERO if spec.no_op else CODE)) for n in opaque]
    return declared, undeclared


def merge_abis(per_abi):
    """One list of lines for every stub ABI, from each ABI's (name, line)
    pairs: the lines every ABI has, then those of fewer ABIs in one block
    per set of ABIs, guarded by them (#if CUDASTUB_ABI_MAJOR == ...)."""
    majors = sorted(per_abi)
    where = {}
    for m in majors:
        for name, line in per_abi[m]:
            where.setdefault((name, line), set()).add(m)
    out, guard = [], None
    # every ABI's lines first, then each set of ABIs' in a block of its own
    # (ABI changes often come in runs: NPP 12 made every signal length a
    # size_t), by name within
    for (name, line), abis in sorted(where.items(),
                                     key=lambda kv: (len(kv[1]) < len(majors), sorted(kv[1]),
                                                     kv[0][0], kv[0][1])):
        want = None if len(abis) == len(majors) else tuple(sorted(abis))
        if want != guard:
            if guard:
                out.append("#endif")
            if want:
                out.append("#if " + " || ".join("CUDASTUB_ABI_MAJOR == %d" % m for m in want))
            guard = want
        out.append(line)
    if guard:
        out.append("#endif")
    return out


# what a file read by every stub ABI says first: the ABI it is read for
ABI_REQUIRED = ["#ifndef CUDASTUB_ABI_MAJOR",
                "#error \"CUDASTUB_ABI_MAJOR (the stub's ABI) chooses the lines of this file\"",
                "#endif"]


def emit_rows(per_abi, header_note):
    """The library's rows (<lib>_rows.h) for every stub ABI, one line per
    export and ABI, in the order of the F_<name> enum. per_abi: major ->
    row_lines()."""
    out = [header_note] + ABI_REQUIRED + [
           "/* One row per export (stubs/loader/bind/table_define.h): name, majors with the same ABI,",
           " * majors where a later minor may add it, majors with another ABI, fallback, and",
           " * the type it is forwarded with, checked against the headers' declaration",
           " * (stubs/loader/bind/table_check.h). */"]
    out += merge_abis({m: d for m, (d, _) in per_abi.items()})
    if any(u for _, u in per_abi.values()):
        out.append("/* No header declares these: forwarded without a prototype, to a major that")
        out.append(" * exports them undeclared too. */")
        out += merge_abis({m: u for m, (_, u) in per_abi.items()})
    return "\n".join(out) + "\n"


def status_name_lines(names):
    """One ABI's status names as (key, line) pairs for merge_abis: each
    value once, by its first name (an alias, a second name of a value, is
    left out, as in the real tables)."""
    seen, out = set(), []
    for const, value in names:
        if value in seen:
            continue
        seen.add(value)
        out.append(("%011d" % (value + 2**31), '\t{%d, "%s"},' % (value, const)))
    return out


def status_names_path(spec):
    """The status names file a table reads: its library's, or that of the
    library whose names it shares (spec: status_names_of)."""
    of = spec.status_names_of or spec.library
    return "generated/%s/%s_status_names.h" % (of, of)


def status_names_include(spec):
    """status_names_path's #include: the library's own by the include path,
    as the rows; another library's by its place from this table's folder
    (generated/<lib>/cu<major>/)."""
    if not spec.status_names_of:
        return "<%s_status_names.h>" % spec.library
    return '"../../%s/%s_status_names.h"' % (spec.status_names_of, spec.status_names_of)


def emit_status_names(spec, per_abi, header_note):
    """<lib>_status_names.h: the initializer of the table's status names
    (<lib>_table.c), for every stub ABI. per_abi: major -> the result
    enum's (name, value) pairs."""
    out = [header_note] + ABI_REQUIRED + [
           "/* %s's values and their names in the headers, {value, name}: the" % spec.result_enum,
           " * initializer of the table's status_names (%s_table.c). */" % spec.library]
    out += merge_abis({m: status_name_lines(n) for m, n in per_abi.items()})
    return "\n".join(out) + "\n"


def _typed_fallback_name(spec, n):
    if n in spec.custom_fallback:
        return "cudastub_%s_fallback_%s" % (spec.library, n)
    return "%s_unavailable" % n


def _fallback_says(spec, fn, n):
    """What a typed fallback answers, as the debug log tells it
    (CUDASTUB_FALLBACK_SAYS): the sentence, and whether the library's code
    for the reason ends it (NO_CODE, CODE, NEGATIVE)."""
    ret = fn.ret
    if n in spec.error_string:
        return "gives the failed search's one line for the stub's own code, else the code's name", "NO_CODE"
    if n in spec.error_name:
        return "gives the code's name in the stub's record", "NO_CODE"
    if n in spec.fallback_values:
        value = spec.fallback_values[n]
        macro = spec.fallback_macros.get(value)
        return "returns %s" % ("%s (%s)" % (value, macro) if macro else value), "NO_CODE"
    if n in spec.offline_version:
        return "answers the version of the release the stub was made from", "NO_CODE"
    code = "NEGATIVE" if n in spec.negative_status else "CODE"
    if n in spec.zero_outputs:
        return "sets its outputs to 0 and returns", code
    if ret == spec.result and spec.result_field:
        return "returns a %s whose %s is" % (ret, spec.result_field), code
    if ret == "void":
        return "returns nothing", "NO_CODE"
    if ret.endswith("*"):
        return "returns NULL", "NO_CODE"
    return "returns a zeroed %s" % ret, "NO_CODE"


def emit(spec, abi, routed, names, header_note):
    """The library's table (<lib>_table.c): the typed fallbacks its spec
    asks for, the C forwarders of its hand-written exports, its entry
    points and status names, then the table itself (table_define.h, from
    <lib>_rows.h)."""
    lib = spec.library
    out = c_file_opening(header_note, lib, ("stdatomic.h", "stddef.h", "string.h"))
    out += emit_entry_points(spec)
    out += _version_macros(spec, abi)
    for n in sorted(abi.functions):
        fn = abi.functions[n]
        ret, params, args = fn.ret, fn.parameters(), fn.arg_names()
        if n in spec.handwritten:
            out += _c_forwarded(lib, n, ret, params, args, n in routed)
        if fallback_class(spec, fn, n) != TYPED or n in spec.custom_fallback:
            continue
        out.append("")
        says = _fallback_says(spec, fn, n)
        if n in spec.error_name or n in spec.error_string:
            out.append("static %s %s_unavailable(%s)" % (ret, n, params))
            out.append("{")
            out += _error_text_body(spec, fn, n in spec.error_string)
        elif n in spec.fallback_values:
            # the same answer whatever the reason (spec: fallback)
            out += ["static %s %s_unavailable(void)" % (ret, n), "{"]
            value = spec.fallback_values[n]
            if value.startswith("{") and ret.endswith("*"):
                # a struct's value, for a function that returns a pointer to
                # one: the stub's own, which lives as long as the process
                out.append("\tstatic %s answer = %s;" % (ret[:-1].strip(), value))
                value = "&answer"
            out.append("\treturn %s;" % value)
        elif n in spec.offline_version:
            out += ["static %s %s_unavailable(%s)" % (ret, n, params), "{"]
            out += _offline_version_body(spec, fn, n)
        elif n in spec.zero_outputs or (ret == spec.result and spec.result_field):
            out += ["static %s %s_unavailable(%s)" % (ret, n, params), "{"]
            if n in spec.zero_outputs:
                out += _zero_outputs(fn)
            out.append(_fallback_body(ret, spec, "F_" + n, args,
                                      n in spec.negative_status).rstrip("\n"))
        else:
            # a float or a struct: its zero, whatever the arguments
            out += ["static %s %s_unavailable(void)" % (ret, n), "{"]
            out.append(_fallback_body(ret, spec, "F_" + n, []).rstrip("\n"))
        out.append("}")
        out.append('CUDASTUB_FALLBACK_SAYS(%s_unavailable, "%s", CUDASTUB_SAYS_%s);' % (
            n, says[0].replace("\\", "\\\\").replace('"', '\\"'), says[1]))
    out.append("")
    if not names:  # no status type (spec: result none)
        out += ["/* %s has no status type (spec: result none). */" % lib,
                "const char *cudastub_%s_result_name(int code)" % lib, "{",
                "\t(void)code;", "\treturn NULL;", "}"]
    else:
        out += ["/* The names of %s's values in the headers of the stub's ABI." % spec.result_enum,
                " * (%s). */" % status_names_path(spec),
                "static const struct cudastub_status_name status_names[] = {",
                "#include %s" % status_names_include(spec), "};", "",
                "const char *cudastub_%s_result_name(int code)" % lib, "{",
                "\treturn cudastub_status_name_of(status_names, sizeof status_names / "
                "sizeof *status_names, code);", "}"]
    out += ["", "/* The table, its slots and its forwarders, from the rows. */",
            "#define CUDASTUB_TABLE_LIB %s" % lib, '#define CUDASTUB_TABLE_NAME "%s"' % lib,
            '#define CUDASTUB_TABLE_ROWS "%s_rows.h"' % lib, '#include "table_define.h"', ""]
    return "\n".join(out)


def emit_checks(spec, header_note):
    """<lib>_checks.c: every row's type against NVIDIA's declaration in
    NVIDIA's own headers (stubs/loader/bind/table_check.h), compiled by the
    tests where those headers are at hand (tests/records), never by the
    build, which needs none of them. The headers are read as the records
    were made from them: the spec's macros, its variants but the
    per-thread-stream one (whose names the rows check under their own)."""
    out = [header_note, "", "#define _GNU_SOURCE", "#include <stddef.h>", "#include <string.h>",
           # a prototype may name struct timespec (cuFile's) that its header
           # does not declare
           "#include <time.h>", ""]
    out += ["#define %s" % v.replace("=", " ", 1) for v in spec.variants
            if not v.startswith("CUDA_API_PER_THREAD_DEFAULT_STREAM")]
    out += records.include_lines(spec.context + spec.headers, spec.predefine)
    # a fallback's value that is a macro of NVIDIA's headers (spec:
    # fallback VALUE=MACRO), which no record holds: the stub answers VALUE
    out += [""] + ["_Static_assert((%s) == (%s), \"%s\");" % (macro, value, macro)
                   for value, macro in sorted(spec.fallback_macros.items())]
    out += ["", '#define CUDASTUB_TABLE_ROWS "%s_rows.h"' % spec.library,
            '#include "table_check.h"']
    return "\n".join(out) + "\n"


def _declared_as(spec, abi, n):
    for suffix in ("_ptds", "_ptsz"):
        if n.endswith(suffix) and n[:-len(suffix)] in abi.functions:
            return n[:-len(suffix)]
    return n


INTEGERS = ("char", "signed char", "unsigned char", "short", "unsigned short", "int",
            "unsigned int", "long", "unsigned long", "long long", "unsigned long long")


def _version_macros(spec, abi):
    """The headers' version macros the record keeps (spec: version_macros),
    for the offline_version answers."""
    if not spec.offline_version:
        return []
    missing = [m for m in spec.version_macros if m not in abi.consts]
    if missing:
        raise SystemExit("%s: the CUDA %d.%d record has no const line for %s (regenerate it)"
                         % (spec.library, abi.major, abi.minor, ", ".join(missing)))
    return ["", "/* the version of the release the record is from */"] + \
        ["#define %s %d" % (m, abi.consts[m]) for m in spec.version_macros]


def _offline_version_body(spec, fn, n):
    """Without a library, the record's release's version (spec:
    offline_version): returned, set through the one pointer with success,
    or by property (MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL)."""
    exprs, names = spec.offline_version[n], fn.arg_names()
    pointers = [p.canonical.strip() for p in fn.params]
    if len(exprs) == 1 and not fn.params and fn.ret != spec.result:
        return ["\treturn (%s)(%s);" % (fn.ret, exprs[0])]
    success = "(%s)0" % fn.ret
    if len(exprs) == 1 and len(pointers) == 1 and pointers[0].endswith("*"):
        return ["\tif (!%s)" % names[0], "\t\treturn %s;" % _no_library_code(spec, fn),
                "\t*%s = (%s);" % (names[0], exprs[0]), "\treturn %s;" % success]
    if len(exprs) == 3 and len(pointers) == 2 and pointers[1].endswith("*"):
        what, value = names
        return ["\tif (!%s)" % value, "\t\treturn %s;" % _no_library_code(spec, fn),
                "\tswitch (%s) {" % what,
                "\tcase MAJOR_VERSION:", "\t\t*%s = (%s);" % (value, exprs[0]), "\t\tbreak;",
                "\tcase MINOR_VERSION:", "\t\t*%s = (%s);" % (value, exprs[1]), "\t\tbreak;",
                "\tcase PATCH_LEVEL:", "\t\t*%s = (%s);" % (value, exprs[2]), "\t\tbreak;",
                "\tdefault:", "\t\treturn %s;" % _no_library_code(spec, fn), "\t}",
                "\treturn %s;" % success]
    raise SystemExit("offline_version %s: not T f(void), STATUS f(T *) nor "
                     "STATUS f(property, T *) with as many expressions" % n)


def _no_library_code(spec, fn):
    number, constant = spec.unavailable["library"]
    return "(%s)%s" % (fn.ret, constant)


def _zero_outputs(fn):
    """A probe without a library sets every integer it points to to 0
    (spec: zero_outputs): callers print them, or test them > 0."""
    out = []
    for name, p in zip(fn.arg_names(), fn.params):
        pointee = p.canonical.strip()
        if pointee.endswith("*") and pointee[:-1].strip() in INTEGERS:
            out.append("\tif (%s)\n\t\t*%s = 0;" % (name, name))
    if not out:
        raise SystemExit("zero_outputs %s: it points to no integer" % fn.name)
    return out


def _error_text_body(spec, fn, explains_library):
    """Without a library, a status's name from the result enum (spec:
    error_name); error_string also explains the stub's own "no library"
    code with the failed search's one line. Two shapes: const char *f(status), and
    STATUS f(status, const char **text) (CUPTI's), which writes the text
    where it is given a place and returns 0 for a named code, else the "no
    library" code."""
    lib = spec.library
    if fn.ret == spec.result and len(fn.params) == 2 and \
            fn.params[1].canonical.replace(" ", "") == "constchar**":
        return _error_text_out_body(spec, fn, explains_library)
    if not fn.ret.replace(" ", "").endswith("char*") or len(fn.params) != 1:
        raise SystemExit("error_name/error_string %s: not const char *f(status) nor "
                         "STATUS f(status, const char **)" % fn.name)
    code = fn.arg_names()[0]
    out = []
    in_place = spec.error_in_place and spec.error_in_place[0] == fn.name
    if in_place:
        # answered without loading (spec: error_string_in_place): the names
        # are the real answers; the "no library" code is explained only
        # once a search has run and found nothing
        out += ["\tconst struct cudastub_search *s = cudastub_loader_result(&cudastub_%s_library);"
                % lib, "\tconst char *name;", ""]
        if explains_library:
            out += ["\tif ((int)%s == %s && s && !s->handle && s->summary)"
                    % (code, spec.unavailable["library"][1]), "\t\treturn s->summary;"]
        else:
            out += ["\t(void)s;"]
        out += ["\tname = cudastub_%s_result_name((int)%s);" % (lib, code),
                '\treturn name ? name : "%s";' % spec.error_in_place[1]]
        return out
    if explains_library:
        out += ["\tconst char *why = cudastub_loader_why_missing(&cudastub_%s_library);" % lib,
                "\tconst char *name;", "",
                "\tif ((int)%s == %s && why)" % (code, spec.unavailable["library"][1]),
                "\t\treturn why;"]
    else:
        out += ["\tconst char *name;", ""]
    out += ["\tname = cudastub_%s_result_name((int)%s);" % (lib, code),
            '\treturn name ? name : "unrecognized status code";']
    return out


def _error_text_out_body(spec, fn, explains_library):
    """_error_text_body's STATUS f(status, const char **text)."""
    lib, (code, text) = spec.library, fn.arg_names()
    no_library = spec.unavailable["library"][1]
    out = ["\tconst char *name = cudastub_%s_result_name((int)%s);" % (lib, code)]
    if explains_library:
        out += ["\tconst char *why = cudastub_loader_why_missing(&cudastub_%s_library);" % lib,
                "", "\tif ((int)%s == %s && why)" % (code, no_library), "\t\tname = why;"]
    else:
        out.append("")
    out += ["\tif (!%s)" % text, "\t\treturn %s;" % no_library,
            '\t*%s = name ? name : "unrecognized status code";' % text,
            "\treturn name ? (%s)0 : %s;" % (spec.result, no_library)]
    return out


def _c_forwarded(lib, n, ret, params, args, typedef_in_header):
    """A hand-written export's forwarder (spec: handwritten), which it calls
    after its own work: a typed call through the row's slot."""
    call = ", ".join(args)
    slot = "cudastub_%s_slot_%s" % (lib, n)
    out = [""] if typedef_in_header else ["", "typedef %s (*%s_fn)(%s);" % (ret, n, params)]
    out += ["extern _Atomic(void *) %s CUDASTUB_HIDDEN;" % slot,
            "%s cudastub_%s_forward_%s(%s)" % (ret, lib, n, params), "{",
            "\t%s((%s_fn)atomic_load_explicit(&%s, memory_order_acquire))(%s);"
            % ("" if ret == "void" else "return ", n, slot, call), "}"]
    return out


def emit_declarations(spec, abi, routed, header_note):
    """Prototypes of the hand-written side, so both halves agree."""
    lib = spec.library
    out = [header_note, "#ifndef CUDASTUB_%s_GENERATED_H" % lib.upper(),
           "#define CUDASTUB_%s_GENERATED_H" % lib.upper(), "",
           '#include "%s_names.h"' % lib, '#include "table.h"', ""]
    out.append("/* Rows of cudastub_%s_rows, one per export (%s_rows.h: by the include path,"
               % (lib, lib))
    out.append(" * never from this file's folder, which may be a newer major's). */")
    out.append("#define CUDASTUB_ROW(name, ...) F_##name,")
    out.append("#define CUDASTUB_ROW_X(name, ...) F_##name,")
    out.append("#define CUDASTUB_ROW_OPAQUE(name, ...) F_##name,")
    out.append("enum {")
    out.append('#include <%s_rows.h>' % lib)
    out.append("\tF_COUNT")
    out.append("};")
    out.append("#undef CUDASTUB_ROW")
    out.append("#undef CUDASTUB_ROW_X")
    out.append("#undef CUDASTUB_ROW_OPAQUE")
    out.append("")
    out.append("extern const struct cudastub_row cudastub_%s_rows[] CUDASTUB_HIDDEN;" % lib)
    out.append("const char *cudastub_%s_result_name(int code);" % lib)
    out.append("")
    if spec.no_op:
        out.append("/* No status type (spec: result none): nothing returns these; a call that")
        out.append(" * cannot forward answers its no-op value. */")
    else:
        out.append("/* What a call returns when it cannot forward, by reason (the spec's")
        out.append(" * 'unavailable' lines): the initializer of the library's codes. */")
    out.append("#define CUDASTUB_%s_UNAVAILABLE_CODES \\" % lib.upper())
    out.append("\t{ \\")
    for reason in spec.UNAVAILABLE_REASONS:
        out.append("\t\t[CUDASTUB_UNAVAILABLE_%s] = %s, \\" % (reason.upper(), spec.unavailable[reason][1]))
    out.append("\t}")
    for number, constant in sorted(set(spec.unavailable.values()) if not spec.no_op else ()):
        out.append("_Static_assert(%s == %d, \"the spec's number for %s\");" % (constant, number, constant))
    out.append("")
    out += _description(spec)
    if spec.adapters:
        out.append("/* The stand-in for an adapted export (the spec's adapter lines) on the loaded")
        out.append(" * major, or NULL: the translators registered by name, stubs/%s/adapt_*.c */"
                   % lib)
        out.append("void *cudastub_%s_adapt(const struct cudastub_release *release);" % lib)
    for n in sorted(abi.functions):
        ret, params = abi.functions[n].ret, abi.functions[n].parameters()
        if n in spec.handwritten:
            out.append("%s cudastub_%s_forward_%s(%s);" % (ret, lib, n, params))
        if n in spec.custom_fallback:
            out.append("%s cudastub_%s_fallback_%s(%s);" % (ret, lib, n, params))
        if n in routed:
            out.append("typedef %s (*%s_fn)(%s);" % (ret, n, params))
            out.append("/* The loaded major's name for it, or its translator, or NULL: %s_routes.c */"
                       % lib)
            out.append("%s_fn cudastub_%s_route_%s(const struct cudastub_release *release);"
                       % (n, lib, n))
    out.append("")
    out.append("#endif")
    out.append("")
    return "\n".join(out)


def _description(spec):
    """The library's description for the loader, from the spec: the fixed
    half of struct cudastub_library (loader.h), as an initializer."""
    lib = spec.library
    sonames = ", ".join('{%d, "%s"}' % s for s in spec.sonames) + ", {0, NULL}"
    wheels = "".join('"%s", ' % d for d in spec.wheel_dirs) + "NULL"
    fields = ['.name = "%s"' % lib, ".env_path = CUDASTUB_%s_ENV_PATH" % lib.upper(),
              ".env_major = CUDASTUB_%s_ENV_MAJOR" % lib.upper(), '.family = "%s"' % spec.family,
              ".sonames = (const struct cudastub_soname[]){%s}" % sonames,
              ".wheel_dirs = (const char *const[]){%s}" % wheels]
    if spec.companion:
        fields.append('.companion_format = "%s"' % spec.companion)
    if spec.release_preference:
        fields.append(".preferred_majors = cudastub_release_preference")
    fields += [".codes = CUDASTUB_%s_UNAVAILABLE_CODES" % lib.upper(),
               ".abi_major = CUDASTUB_ABI_MAJOR", ".abi_minor = CUDASTUB_ABI_MINOR",
               'CUDASTUB_LIBRARY_STATE_INIT("%s")' % lib]
    out = ["/* The library as its spec describes it: SONAMEs by major (newest first),",
           " * pip wheel folders, variables; the stub adds its probes and hooks. */",
           "#define CUDASTUB_%s_DESCRIPTION \\" % lib.upper()]
    out += ["\t%s, \\" % f for f in fields[:-1]]
    out.append("\t%s" % fields[-1])
    out.append("")
    return out


def emit_names(spec, header_note):
    """The names a stub and the cudastub command share, whatever the ABI."""
    lib = spec.library.upper()
    return "\n".join([header_note, "#ifndef CUDASTUB_%s_NAMES_H" % lib,
                      "#define CUDASTUB_%s_NAMES_H" % lib, "",
                      "/* the override and pin variables (%s.spec) */" % spec.library,
                      '#define CUDASTUB_%s_ENV_PATH "%s"' % (lib, spec.env_path),
                      '#define CUDASTUB_%s_ENV_MAJOR "%s"' % (lib, spec.env_major), "",
                      "#endif", ""])


def emit_entry_points(spec):
    """cudastub_<lib>_info and cudastub_<lib>_load (cudastub.h)."""
    lib = spec.library
    return ["", "/* Introspection (cudastub.h) */",
            "CUDASTUB_EXPORT const cudastub_library_info *cudastub_%s_info(void)" % lib,
            "{", "\treturn cudastub_loader_info(&cudastub_%s_library);" % lib, "}", "",
            "CUDASTUB_EXPORT cudastub_state cudastub_%s_load(void)" % lib,
            "{", "\treturn cudastub_loader_load(&cudastub_%s_library);" % lib, "}"]


def _macro(s):
    return re.sub(r"[^A-Za-z0-9_]", "_", s)


def adapted_forms(builds, adapters, unsized=()):
    """{name: [form, ...]}, one form per build record (builds: one per
    major, oldest first) for each adapted name: the first major whose
    headers declare the name with the ABI this major's do (the prototype
    and every struct it reaches, records.Abi.identity), 0 where it is not
    declared. A name_ptsz that a major declares only for per-thread-stream
    builds (11.8) has its legacy name's form there: wherever both are
    declared they agree, which this checks."""
    def identity(abi, name):
        if name in abi.functions:
            return abi.identity(name, unsized)
        base = name[:-len("_ptsz")] if name.endswith("_ptsz") else None
        return abi.identity(base, unsized) if base and base in abi.functions else None

    out = {}
    for name in sorted(adapters):
        base = name[:-len("_ptsz")] if name.endswith("_ptsz") else None
        for abi in builds:
            if base and name in abi.functions and base in abi.functions and \
                    abi.identity(name, unsized) != abi.identity(base, unsized):
                raise SystemExit("%s: %s's prototype is not %s's in CUDA %d"
                                 % (name, name, base, abi.major))
        ids = [identity(abi, name) for abi in builds]
        out[name] = [next(b.major for b, other in zip(builds, ids) if other == mine)
                     if mine is not None else 0 for mine in ids]
    return out


def emit_forms(lib, builds, families, calls, header_note, unsized=()):
    """The forms in every recorded major (adapted_forms) of the adapted names
    (families: name -> the family of adapters that stands in for it) and of
    the names the adapters call (calls): what the adapters' registry
    (stubs/<lib>/adapt_registry.c) reads to send an export to its family
    and to tell a translator's caller and the loaded runtime apart."""
    forms = adapted_forms(builds, set(families) | set(calls), unsized)
    out = [header_note,
           "/* The majors below, in the order of each line's forms. */",
           "#define CUDASTUB_%s_FORM_MAJORS %s" % (lib.upper(), ", ".join(str(b.major) for b in builds)),
           "/* The families of adapters (stubs/%s/adapt_<family>.c), as the spec names them. */"
           % lib,
           "#define CUDASTUB_%s_ADAPT_FAMILIES(X) %s"
           % (lib.upper(), " ".join("X(%s)" % f for f in sorted(set(families.values())))),
           "/* CUDASTUB_FORMS(name, its family (none: a name the adapters call), the form",
           " * of name in each of those majors): the first major whose headers declare",
           " * name with that major's ABI; 0, not declared */"]
    out += ["CUDASTUB_FORMS(%s, %s, %s)" % (n, families.get(n, "none"),
                                          ", ".join(str(f) for f in forms[n])) for n in sorted(forms)]
    out.append("")
    return "\n".join(out)


def emit_layouts(lib, abis, header_note, adapters=()):
    """Sizes and field offsets, in every recorded major, of each struct whose
    layout differs between majors or that an adapted function reaches: what
    the hand-written adapters' per-major structs are checked against
    (_Static_assert)."""
    lib_guard = "CUDASTUB_%s_LAYOUTS_H" % lib.upper()
    out = [header_note, "#ifndef %s" % lib_guard, "#define %s" % lib_guard, ""]
    names = sorted({s for a in abis for s in a.structs})
    reached = {u for a in abis for n in adapters if n in a.functions for u in a.functions[n].uses}
    for name in names:
        layouts = {a.major: tuple(a.structs[name]) for a in abis if name in a.structs}
        if len(set(layouts.values())) < 2 and name not in reached:
            continue
        base = _macro(name.replace("struct ", "").replace("union ", ""))
        for major, layout in sorted(layouts.items()):
            size = layout[0]
            if size == "opaque":
                continue
            out.append("#define CUDASTUB_LAYOUT_%s_%d_SIZE %s" % (base, major, size))
            for off, _size, _type, field in layout[1:]:
                if field and int(off) >= 0:
                    out.append("#define CUDASTUB_LAYOUT_%s_%d_%s %s" % (base, major, field, off))
        out.append("")
    out.append("#endif")
    out.append("")
    return "\n".join(out)


def _cell_words(cell, name, code, tsv):
    """One cell of the tables: what the stub does on one major."""
    if cell.kind == "route" or (cell.routes and not tsv):
        parts = []
        for r in cell.routes:
            how = "as" if r.as_is else "translated"
            if tsv:
                parts.append("%s:%s" % ("as-is" if r.as_is else "translated", r.name))
            elif r.name == name:
                parts.append(how)
            else:
                parts.append("%s `%s`" % (how, r.name) if r.as_is else "translated, as `%s`" % r.name)
        if cell.kind == "adapter":
            parts.append("adapter")
        return ("|" if tsv else ", else ").join(parts)
    if tsv:
        return {"forward": "forward", "if_present": "forward-if-present", "adapter": "adapter",
                "abi": "abi-differs", "absent": "absent", "removed": "removed"}[cell.kind]
    return {"forward": "forward", "if_present": "forward if present", "adapter": "adapter",
            "abi": "%s (ABI differs)" % code["abi"], "absent": "%s (absent)" % code["function"],
            "removed": "%s (removed)" % code["removed"]}[cell.kind]


def emit_gating_table(cells, majors, header_note):
    """One line per function that some recorded major cannot take as is:
    what the stub does there. README.md's table is checked against it."""
    out = ["# " + header_note[3:-3],
           "# function\t" + "\t".join("cuda-%d" % m for m in majors)]
    for name in sorted(cells):
        words = [_cell_words(cells[name][m], name, None, True) for m in majors]
        if any(w != "forward" for w in words):
            out.append("%s\t%s" % (name, "\t".join(words)))
    return "\n".join(out) + "\n"


def emit_abi_table(spec, cells, notes, majors, build, header_note):
    """The README's table for one stub ABI: every function that some other
    major cannot take as it is, what the stub does there, and why, with the
    codes this stub returns. notes maps a name to the reason for what the
    stub does (stubs/<lib>/<lib>.notes)."""
    code = {r: spec.code_text(r) for r in spec.UNAVAILABLE_REASONS}
    others = [m for m in majors if m != build.major]
    out = ["<!-- %s -->" % header_note[3:-3], "",
           "| function | " + " | ".join("on %d.x" % m for m in others) + " | notes |",
           "| --- | " + " | ".join("---" for _ in others) + " | --- |"]
    for name in sorted(cells):
        words = [_cell_words(cells[name][m], name, code, False) for m in others]
        if all(w == "forward" for w in words):
            continue
        note = notes.get(name, "")
        if any(cells[name][m].kind == "abi" for m in others) and not note:
            note = "NO REASON RECORDED"
        out.append("| `%s` | %s | %s |" % (name, " | ".join(words), note))
    return "\n".join(out) + "\n"
