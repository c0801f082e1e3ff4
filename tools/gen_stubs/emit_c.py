"""Writes a stub's generated C: wrappers, resolvers, fallbacks, gating rows.

Every wrapper has the same shape, fixed by the cost contract:

    RET name(ARGS) { return atomic_load_explicit(&name_slot, acquire)(ARGS); }

which compiles to one indirect tail jump. The slot starts at name_resolve,
which asks the loader once (cudastub_loader_bind), stores the answer in the
slot and makes the call. The generated code makes no decision of its own.
"""

import re


def _fallback_body(ret, result_type, lib, index, names):
    voids = "".join("\t(void)%s;\n" % n for n in names)
    if ret == result_type:
        return "%s\treturn (%s)cudastub_loader_unavailable(&cudastub_%s_library,\n\t\t\t\t\t\t&cudastub_%s_functions[%s]);\n" % (
            voids, ret, lib, lib, index)
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
    out = c_file_opening(header_note, lib, ("stdatomic.h", "stddef.h", "string.h")) + [""]
    order = sorted(abi.functions)
    out.append("/* name, majors with the same ABI, majors where it may appear in a later")
    out.append(" * minor, majors with a different ABI (see loader.h) */")
    out.append("const struct cudastub_function cudastub_%s_functions[] = {" % lib)
    for n in order:
        same, later, other = rows[n]
        out.append("\t{ \"%s\", %s, %s, %s }," % (n, _mask(same), _mask(later), _mask(other)))
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
            out.append(_fallback_body(ret, spec.result, lib, "F_" + n, args).rstrip("\n"))
            out.append("}")
        bind = ["(%s)cudastub_loader_bind(&cudastub_%s_library," % (typ, lib),
                "\t\t\t\t\t\t&cudastub_%s_functions[F_%s]);" % (lib, n)]
        if n in spec.adapter_first:
            choose = ["\t%s fn = cudastub_%s_adapt_%s();" % (typ, lib, n), "",
                      "\tif (!fn)", "\t\tfn = " + bind[0], "\t" + bind[1]]
        else:
            choose = ["\t%s fn = %s" % (typ, bind[0]), bind[1], ""]
        if n in routed:
            choose += ["\tif (!fn)", "\t\tfn = cudastub_%s_route_%s();" % (lib, n)]
        if n in spec.adapters and n not in spec.adapter_first:
            choose += ["\tif (!fn)", "\t\tfn = cudastub_%s_adapt_%s();" % (lib, n)]
        choose += ["\tif (!fn)", "\t\tfn = %s;" % fallback]
        if needs_asm(fn) and n not in spec.handwritten:
            out.append("#if defined(__x86_64__)")
            out += _asm_forwarded(lib, n, choose)
            out.append("#else")
            out += _c_forwarded(spec, lib, n, ret, params, args, choose)
            out.append("#endif")
        else:
            out += _c_forwarded(spec, lib, n, ret, params, args, choose)
    out.append("")
    out.append("/* The names of %s's values in the CUDA %d.%d headers. */" % (spec.result, abi.major, abi.minor))
    out.append("const char *cudastub_%s_result_name(int code)" % lib)
    out.append("{")
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


def _c_forwarded(spec, lib, n, ret, params, args, choose):
    """The C wrapper: a load of the slot and a call gcc turns into a tail
    jump, and a resolver with the same prototype."""
    call = ", ".join(args)
    typ = "%s_fn" % n
    out = ["static %s %s_resolve(%s);" % (ret, n, params),
           "static _Atomic(%s) %s_slot = %s_resolve;" % (typ, n, n)]
    load = "atomic_load_explicit(&%s_slot, memory_order_acquire)(%s)" % (n, call)
    if n in spec.handwritten:
        # the hand-written export calls this after its own checks
        out.append("%s cudastub_%s_forward_%s(%s)" % (ret, lib, n, params))
    else:
        out.append("CUDASTUB_EXPORT %s %s(%s)" % (ret, n, params))
    out += ["{", "\t%s%s;" % ("" if ret == "void" else "return ", load), "}"]
    out += ["static %s %s_resolve(%s)" % (ret, n, params), "{"] + choose
    out.append("\tatomic_store_explicit(&%s_slot, fn, memory_order_release);" % n)
    out.append("\t%sfn(%s);" % ("" if ret == "void" else "return ", call))
    out.append("}")
    return out


def _asm_forwarded(lib, n, choose):
    """The export in assembly: `jmp *slot(%rip)`, the slot starting at a
    stub that hands the bind function to cudastub_asm_resolve
    (stubs/common/loader_resolve_x86_64.S)."""
    slot, resolve, bind = ("cudastub_%s_%s_%s" % (lib, what, n) for what in ("slot", "resolve", "bind"))
    out = ["extern char %s[] CUDASTUB_HIDDEN;" % resolve,
           "CUDASTUB_HIDDEN _Atomic(void *) %s = %s;" % (slot, resolve),
           "CUDASTUB_HIDDEN void *%s(void);" % bind,
           "void *%s(void)" % bind, "{"] + choose
    out += ["\tatomic_store_explicit(&%s, (void *)fn, memory_order_release);" % slot,
            "\treturn (void *)fn;", "}"]
    out += _asm_block(n, slot, resolve, bind)
    return out


def _asm_block(n, slot, resolve, bind):
    # push/popsection: the compiler's idea of the current section stays true
    lines = ["\t.pushsection .text", "\t.p2align 4", "\t.globl %s" % n, "\t.type %s, @function" % n,
             "%s:" % n, "\tjmp *%s(%%rip)" % slot, "\t.size %s, .-%s" % (n, n),
             "\t.p2align 4", "\t.hidden %s" % resolve, "\t.type %s, @function" % resolve,
             "%s:" % resolve, "\tlea %s(%%rip), %%r11" % bind, "\tjmp cudastub_asm_resolve",
             "\t.size %s, .-%s" % (resolve, resolve), "\t.popsection"]
    return ["__asm__("] + ["\t\"%s\\n\"" % l for l in lines] + [");"]


def needs_asm(fn):
    """Whether gcc may not compile a C forwarder to a bare tail jump: more
    than six integer arguments (the rest go on the stack), a struct passed
    or returned by value, a char or short argument (re-widened), or
    floating-point arguments past xmm7. The exports test checks every
    wrapper's instructions either way."""
    params = [p.canonical for p in fn.params]
    by_value = lambda t: t.startswith(("struct ", "union ")) and "*" not in t
    floats = [t for t in params if t in ("float", "double")]
    ints = [t for t in params if t not in floats]
    # gcc widens a char or short argument again before the jump
    narrow = lambda t: t in ("char", "signed char", "unsigned char", "short", "unsigned short", "_Bool")
    ret = fn.abi[:fn.abi.index("(")].strip()
    return (len(ints) > 6 or len(floats) > 8 or any(by_value(t) or narrow(t) for t in params)
            or by_value(ret))


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
    out.append("/* What a call returns when it cannot forward, by reason (the spec's")
    out.append(" * 'unavailable' lines): the initializer of the library's codes. */")
    out.append("#define CUDASTUB_%s_UNAVAILABLE_CODES \\" % lib.upper())
    out.append("\t{ \\")
    for reason in spec.UNAVAILABLE_REASONS:
        out.append("\t\t[CUDASTUB_UNAVAILABLE_%s] = %s, \\" % (reason.upper(), spec.unavailable[reason][1]))
    out.append("\t}")
    for number, constant in sorted(set(spec.unavailable.values())):
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


def emit_cmake(spec, header_note):
    """The SONAMEs for CMake: cudastub_<lib>_soname_<major> (major 0: _any)."""
    out = ["# " + header_note[3:-3], ""]
    for major, name in spec.sonames:
        out.append("set(cudastub_%s_soname_%s %s)" % (spec.library, major or "any", name))
    return "\n".join(out) + "\n"


def emit_opaque(spec, names, rows, header_note):
    """Forwarders for exports no header declares. With no prototype there is
    nothing C can say about the arguments, so each export is one
    `jmp *slot(%rip)`, resolved by the register-preserving
    cudastub_asm_resolve. x86-64 only; elsewhere these few names are not
    exported."""
    lib = spec.library
    out = c_file_opening(header_note, lib, ("stdatomic.h",)) + [""]
    out.append("#if defined(__x86_64__)")
    out.append("")
    out.append("static const struct cudastub_function opaque_rows[] = {")
    for n in names:
        same, later, other = rows[n]
        out.append("\t{ \"%s\", %s, %s, %s }," % (n, _mask(same), _mask(later), _mask(other)))
    out.append("};")
    out.append("")
    for i, n in enumerate(names):
        out.append("")
        out.append("/* %s: when it cannot forward, returns as every stub function does, for"
                   " its own row */" % n)
        out.append("static int unavailable_%s(void)" % n)
        out.append("{")
        out.append("\treturn cudastub_loader_unavailable(&cudastub_%s_library, &opaque_rows[%d]);"
                   % (lib, i))
        out.append("}")
        choose = ["\tvoid *fn = cudastub_loader_bind(&cudastub_%s_library, &opaque_rows[%d]);" % (lib, i),
                  "", "\tif (!fn)", "\t\tfn = (void *)unavailable_%s;" % n]
        out += _asm_forwarded(lib, n, choose)
    out.append("")
    out.append("#endif /* __x86_64__ */")
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
            "abi": "%d (ABI differs)" % code["abi"], "absent": "%d (absent)" % code["function"],
            "removed": "%d (removed)" % code["removed"]}[cell.kind]


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
    code = {r: spec.unavailable[r][0] for r in spec.UNAVAILABLE_REASONS}
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
