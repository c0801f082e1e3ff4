"""Writes a stub's generated C: wrappers, resolvers, fallbacks, gating rows.

Every export has the same shape, fixed by the cost contract and written
once, per architecture, in stubs/common/forwarder.h: on x86-64 the export
is `jmp *slot(%rip)`, one instruction; on aarch64 `adrp`/`ldr`/`br x16`.
The slot starts at a resolve stub that reaches the function's bind
function through the register-preserving cudastub_asm_resolve; bind asks the loader once (cudastub_loader_bind,
then the routes, the adapters, the fallback: the function's `choose`),
stores the answer in the slot and returns it. Where forwarder.h has no
assembly, a C wrapper loads the slot and calls through it. The generated
code makes no decision of its own.
"""

import re


def _fallback_body(ret, spec, index, names, negative=False):
    voids = "".join("\t(void)%s;\n" % n for n in names)
    lib = spec.library
    code = "cudastub_loader_unavailable(&cudastub_%s_library,\n\t\t\t\t\t\t&cudastub_%s_functions[%s])" % (
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


def emit(spec, abi, rows, routed, names, header_note):
    """rows: name -> (forward, if_present, other_abi) majors; routed: the
    names with routes (routes.py), whose resolvers ask them after the
    loader."""
    lib = spec.library
    out = c_file_opening(header_note, lib, ("stdatomic.h", "stddef.h", "string.h"),
                         ("forwarder.h",)) + [""]
    order = sorted(abi.functions)
    out.append("/* By function (F_<name>): majors with the same ABI, majors where it may")
    out.append(" * appear in a later minor, majors with a different ABI (see loader.h) */")
    out.append("const struct cudastub_function cudastub_%s_functions[] = {" % lib)
    for n in order:
        same, later, other = rows[n]
        out.append("\t[F_%s] = {%s, %s, %s}," % (n, _mask(same), _mask(later), _mask(other)))
    out.append("};")
    out += emit_entry_points(spec)
    for n in order:
        fn = abi.functions[n]
        ret, params, args = fn.ret, fn.parameters(), fn.arg_names()
        typ = "%s_fn" % n
        out.append("")
        out.append("/* %s */" % n)
        if n not in spec.adapters and n not in routed:  # those types are in the header
            out.append("typedef %s (*%s)(%s);" % (ret, typ, params))
        if n in spec.custom_fallback:
            fallback = "cudastub_%s_fallback_%s" % (lib, n)
        else:
            fallback = "%s_unavailable" % n
            out.append("static %s %s(%s)" % (ret, fallback, params))
            out.append("{")
            if n in spec.error_name or n in spec.error_string:
                out += _error_text_body(spec, fn, n in spec.error_string)
            elif n in spec.fallback_values:
                # the same answer whatever the reason (spec: fallback)
                out += ["\t(void)%s;" % a for a in args]
                out.append("\treturn %s;" % spec.fallback_values[n])
            else:
                if n in spec.zero_outputs:
                    out += _zero_outputs(fn)
                out.append(_fallback_body(ret, spec, "F_" + n, args,
                                          n in spec.negative_status).rstrip("\n"))
            out.append("}")
        out += _choose(spec, lib, n, routed, fallback)
        if n in spec.handwritten:
            out += _c_forwarded(lib, n, ret, params, args, exported=False)
        else:
            out.append("#if defined(CUDASTUB_ASM_FORWARDERS)")
            out += _asm_forwarded(lib, n, "(void *)%s_choose()" % n)
            out.append("#else")
            out += _c_forwarded(lib, n, ret, params, args, exported=True)
            out.append("#endif")
    out.append("")
    out.append("/* The names of %s's values in the CUDA %d.%d headers. */" % (spec.result_enum, abi.major, abi.minor))
    out.append("const char *cudastub_%s_result_name(int code)" % lib)
    out.append("{")
    if not names:  # no status type (spec: result none)
        out += ["\t(void)code;", "\treturn NULL;", "}", ""]
        return "\n".join(out)
    out.append("\tswitch (code) {")
    seen = set()
    for const, value in names:
        if value in seen:
            continue  # aliases: the first name wins, as in the real tables
        seen.add(value)
        out.append("\tcase %d: return \"%s\";" % (value, const))
    out.append("\t}")
    out.append("\treturn NULL;")
    out.append("}")
    out.append("")
    return "\n".join(out)


INTEGERS = ("char", "signed char", "unsigned char", "short", "unsigned short", "int",
            "unsigned int", "long", "unsigned long", "long long", "unsigned long long")


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
    code with what was searched. Two shapes: const char *f(status), and
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


def _choose(spec, lib, n, routed, fallback):
    """What the slot will hold: the loader's symbol, else a route, else an
    adapter (asked first when the spec says so), else the fallback."""
    typ = "%s_fn" % n
    bind = "(%s)cudastub_loader_bind(&cudastub_%s_library, \"%s\", &cudastub_%s_functions[F_%s])" % (
        typ, lib, n, lib, n)
    out = ["static %s %s_choose(void)" % (typ, n), "{"]
    if (spec.error_in_place and spec.error_in_place[0] == n) or n in spec.in_place:
        return out + ["\treturn %s; /* answered in place, nothing loaded */" % fallback, "}"]
    if n in spec.adapter_first:
        out += ["\t%s fn = cudastub_%s_adapt_%s();" % (typ, lib, n), "", "\tif (!fn)",
                "\t\tfn = %s;" % bind]
    else:
        out += ["\t%s fn = %s;" % (typ, bind), ""]
    if n in routed:
        out += ["\tif (!fn)", "\t\tfn = cudastub_%s_route_%s();" % (lib, n)]
    if n in spec.adapters and n not in spec.adapter_first:
        out += ["\tif (!fn)", "\t\tfn = cudastub_%s_adapt_%s();" % (lib, n)]
    out += ["\treturn fn ? fn : %s;" % fallback, "}"]
    return out


def _c_forwarded(lib, n, ret, params, args, exported):
    """A C wrapper: a load of the slot and a call, and a resolver with the
    same prototype. The export where forwarder.h has no assembly; for a
    hand-written export (spec: handwritten), the internal forwarder it
    calls after its own work (cudastub_<lib>_forward_<name>)."""
    call = ", ".join(args)
    typ = "%s_fn" % n
    out = ["static %s %s_resolve(%s);" % (ret, n, params),
           "static _Atomic(%s) %s_slot = %s_resolve;" % (typ, n, n)]
    load = "atomic_load_explicit(&%s_slot, memory_order_acquire)(%s)" % (n, call)
    if exported:
        out.append("CUDASTUB_EXPORT %s %s(%s)" % (ret, n, params))
    else:
        out.append("%s cudastub_%s_forward_%s(%s)" % (ret, lib, n, params))
    out += ["{", "\t%s%s;" % ("" if ret == "void" else "return ", load), "}"]
    out += ["static %s %s_resolve(%s)" % (ret, n, params), "{",
            "\t%s fn = %s_choose();" % (typ, n), "",
            "\tif (cudastub_loader_result(&cudastub_%s_library))" % lib,
            "\t\tatomic_store_explicit(&%s_slot, fn, memory_order_release);" % n,
            "\t%sfn(%s);" % ("" if ret == "void" else "return ", call), "}"]
    return out


def _asm_forwarded(lib, n, choice):
    """The export in assembly (forwarder.h): its slot, starting at the
    resolve stub, and the bind function the stub hands to the resolver."""
    slot, resolve, bind = ("cudastub_%s_%s_%s" % (lib, what, n) for what in ("slot", "resolve", "bind"))
    settle = "\tcudastub_loader_settle_slot(&cudastub_%s_library, &%s, fn);" % (lib, slot)
    return ["extern char %s[] CUDASTUB_HIDDEN;" % resolve,
            "CUDASTUB_HIDDEN _Atomic(void *) %s = %s;" % (slot, resolve),
            "CUDASTUB_HIDDEN void *%s(void);" % bind,
            "void *%s(void)" % bind, "{",
            "\tvoid *fn = %s;" % choice, "",
            settle,
            "\treturn fn;", "}",
            "CUDASTUB_FORWARDER(%s, %s, %s, %s);" % (n, slot, resolve, bind)]


def _mask(majors):
    if not majors:
        return "0"
    return " | ".join("CUDASTUB_MAJOR_BIT(%d)" % m for m in sorted(majors))


def emit_declarations(spec, abi, routed, header_note):
    """Prototypes of the hand-written side, so both halves agree."""
    lib = spec.library
    out = [header_note, "#ifndef CUDASTUB_%s_GENERATED_H" % lib.upper(),
           "#define CUDASTUB_%s_GENERATED_H" % lib.upper(), "",
           '#include "%s_names.h"' % lib, ""]
    out.append("/* Rows of cudastub_%s_functions. */" % lib)
    out.append("enum {")
    for n in sorted(abi.functions):
        out.append("\tF_%s," % n)
    out.append("\tF_COUNT")
    out.append("};")
    out.append("")
    out.append("extern const struct cudastub_function cudastub_%s_functions[];" % lib)
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
    for n in sorted(abi.functions):
        ret, params = abi.functions[n].ret, abi.functions[n].parameters()
        if n in spec.handwritten:
            out.append("%s cudastub_%s_forward_%s(%s);" % (ret, lib, n, params))
        if n in spec.custom_fallback:
            out.append("%s cudastub_%s_fallback_%s(%s);" % (ret, lib, n, params))
        if n in spec.adapters or n in routed:
            out.append("typedef %s (*%s_fn)(%s);" % (ret, n, params))
        if n in spec.adapters:
            out.append("/* The stand-in for the loaded major, or NULL: stubs/%s/adapt_*.c */" % lib)
            out.append("%s_fn cudastub_%s_adapt_%s(void);" % (n, lib, n))
        if n in routed:
            out.append("/* The loaded major's name for it, or its translator, or NULL: %s_routes.c */"
                       % lib)
            out.append("%s_fn cudastub_%s_route_%s(void);" % (n, lib, n))
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
                      "/* the override and pin variables (specs/%s.spec) */" % spec.library,
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


def emit_opaque(spec, names, rows, header_note):
    """Forwarders for exports no header declares. With no prototype there is
    nothing C can say about the arguments, so they exist only where
    forwarder.h has assembly (x86-64, aarch64): the one jump through the
    slot, resolved by the register-preserving resolver. Elsewhere these few
    names are not exported."""
    lib = spec.library
    out = c_file_opening(header_note, lib, ("stdatomic.h",), ("forwarder.h",)) + [""]
    out.append("#if defined(CUDASTUB_ASM_FORWARDERS)")
    out.append("")
    out.append("static const struct cudastub_function opaque_rows[] = {")
    for n in names:
        same, later, other = rows[n]
        out.append("\t{%s, %s, %s}, /* %s */" % (_mask(same), _mask(later), _mask(other), n))
    out.append("};")
    out.append("")
    for i, n in enumerate(names):
        out.append("")
        if spec.no_op:
            # no status type: a zero as wide as a pointer is the no-op
            # answer whatever the caller reads (nothing, 0 or NULL)
            out.append("/* %s: when it cannot forward, a no-op answering NULL (spec: result"
                       " none) */" % n)
            out.append("static void *unavailable_%s(void)" % n)
            out.append("{")
            out.append("\treturn NULL;")
            out.append("}")
        else:
            out.append("/* %s: when it cannot forward, returns as every stub function does, for"
                       " its own row */" % n)
            out.append("static int unavailable_%s(void)" % n)
            out.append("{")
            out.append("\treturn cudastub_loader_unavailable(&cudastub_%s_library, &opaque_rows[%d]);"
                       % (lib, i))
            out.append("}")
        out.append("")
        out.append("static void *choose_%s(void)" % n)
        out.append("{")
        out.append("\tvoid *fn = cudastub_loader_bind(&cudastub_%s_library, \"%s\", &opaque_rows[%d]);"
                   % (lib, n, i))
        out.append("")
        out.append("\treturn fn ? fn : (void *)unavailable_%s;" % n)
        out.append("}")
        out += _asm_forwarded(lib, n, "choose_%s()" % n)
    out.append("")
    out.append("#endif /* CUDASTUB_ASM_FORWARDERS */")
    out.append("")
    return "\n".join(out)


def _macro(s):
    return re.sub(r"[^A-Za-z0-9_]", "_", s)


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
    if cell.kind == "route":
        parts = []
        for r in cell.routes:
            how = "as" if r.as_is else "translated"
            if tsv:
                parts.append("%s:%s" % ("as-is" if r.as_is else "translated", r.name))
            elif r.name == name:
                parts.append(how)
            else:
                parts.append("%s `%s`" % (how, r.name) if r.as_is else "translated, as `%s`" % r.name)
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
    stub does (specs/<lib>.notes)."""
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
