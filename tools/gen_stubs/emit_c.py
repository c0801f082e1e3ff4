"""Writes a stub's generated C: wrappers, resolvers, fallbacks, gating rows.

Every wrapper has the same shape, fixed by the cost contract:

    RET name(ARGS) { return atomic_load_explicit(&name_slot, acquire)(ARGS); }

which compiles to one indirect tail jump. The slot starts at name_resolve,
which asks the loader once (cudastub_loader_bind), stores the answer in the
slot and makes the call. The generated code makes no decision of its own.
"""

import re


def _split_params(text):
    if text.strip() == "void":
        return []
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch in "(["
        depth -= ch in ")]"
        cur += ch
    parts.append(cur)
    names = []
    for p in parts:
        m = re.search(r"\(\*(\w+)\)", p) or re.search(r"(\w+)\s*(\[.*\])?\s*$", p)
        names.append(m.group(1))
    return names


def _split_decl(name, decl):
    """'RET name(PARAMS)' -> (RET, PARAMS)."""
    at = decl.index(" " + name + "(") if (" " + name + "(") in decl else decl.index("*" + name + "(") + 1
    ret = decl[:at].rstrip()
    params = decl[at + len(name) + 2:-1]
    return ret, params


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


def emit(spec, abi, rows, names, header_note):
    lib = spec.library
    out = [header_note, ""]
    out.append("#define _GNU_SOURCE")
    out.append("#include <stdatomic.h>")
    out.append("#include <stddef.h>")
    out.append("#include <string.h>")
    out.append("")
    out.append("#include <%s>" % spec.header)
    out.append("")
    out.append('#include "%s_stub.h"' % lib)
    out.append("")
    order = sorted(abi.functions)
    out.append("const unsigned cudastub_%s_function_count = F_COUNT;" % lib)
    out.append("")
    out.append("/* name, majors with the same ABI, majors where it may appear in a later")
    out.append(" * minor, majors with a different ABI (see loader.h) */")
    out.append("const struct cudastub_function cudastub_%s_functions[] = {" % lib)
    for n in order:
        same, later, other = rows[n]
        out.append("\t{ \"%s\", %s, %s, %s }," % (n, _mask(same), _mask(later), _mask(other)))
    out.append("};")
    for n in order:
        fn = abi.functions[n]
        ret, params = _split_decl(n, fn["decl"])
        args = _split_params(params)
        call = ", ".join(args)
        typ = "%s_fn" % n
        out.append("")
        out.append("/* %s */" % n)
        out.append("typedef %s (*%s)(%s);" % (ret, typ, params))
        out.append("static %s %s_resolve(%s);" % (ret, n, params))
        out.append("static _Atomic(%s) %s_slot = %s_resolve;" % (typ, n, n))
        load = "atomic_load_explicit(&%s_slot, memory_order_acquire)(%s)" % (n, call)
        if n in spec.handwritten:
            # the hand-written export calls this after its own checks
            out.append("%s cudastub_%s_forward_%s(%s)" % (ret, lib, n, params))
        else:
            out.append("CUDASTUB_EXPORT %s %s(%s)" % (ret, n, params))
        out.append("{")
        out.append("\t%s%s;" % ("" if ret == "void" else "return ", load))
        out.append("}")
        if n in spec.custom_fallback:
            fallback = "cudastub_%s_fallback_%s" % (lib, n)
        else:
            fallback = "%s_unavailable" % n
            out.append("static %s %s(%s)" % (ret, fallback, params))
            out.append("{")
            out.append(_fallback_body(ret, spec.result, lib, "F_" + n, args).rstrip("\n"))
            out.append("}")
        out.append("static %s %s_resolve(%s)" % (ret, n, params))
        out.append("{")
        out.append("\t%s fn = (%s)cudastub_loader_bind(&cudastub_%s_library," % (typ, typ, lib))
        out.append("\t\t\t\t\t\t&cudastub_%s_functions[F_%s]);" % (lib, n))
        out.append("")
        out.append("\tif (!fn)")
        out.append("\t\tfn = %s;" % fallback)
        out.append("\tatomic_store_explicit(&%s_slot, fn, memory_order_release);" % n)
        out.append("\t%sfn(%s);" % ("" if ret == "void" else "return ", call))
        out.append("}")
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


def _mask(majors):
    if not majors:
        return "0"
    return " | ".join("CUDASTUB_MAJOR_BIT(%d)" % m for m in sorted(majors))


def emit_declarations(spec, abi, header_note):
    """Prototypes of the hand-written side, so both halves agree."""
    lib = spec.library
    out = [header_note, "#ifndef CUDASTUB_%s_GENERATED_H" % lib.upper(),
           "#define CUDASTUB_%s_GENERATED_H" % lib.upper(), ""]
    out.append("/* Rows of cudastub_%s_functions. */" % lib)
    out.append("enum {")
    for n in sorted(abi.functions):
        out.append("\tF_%s," % n)
    out.append("\tF_COUNT")
    out.append("};")
    out.append("")
    out.append("extern const unsigned cudastub_%s_function_count;" % lib)
    out.append("extern const struct cudastub_function cudastub_%s_functions[];" % lib)
    out.append("const char *cudastub_%s_result_name(int code);" % lib)
    for n in sorted(abi.functions):
        ret, params = _split_decl(n, abi.functions[n]["decl"])
        if n in spec.handwritten:
            out.append("%s cudastub_%s_forward_%s(%s);" % (ret, lib, n, params))
        if n in spec.custom_fallback:
            out.append("%s cudastub_%s_fallback_%s(%s);" % (ret, lib, n, params))
    out.append("")
    out.append("#endif")
    out.append("")
    return "\n".join(out)
