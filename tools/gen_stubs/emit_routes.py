"""Writes the routes (routes.py) and the layout tables (layouts.py) as C.

A function with routes gets a table of them, tried in order by
cudastub_route_choose (stubs/cudart/layout/layout_route.c), and, when some route
translates structs, one translator. Every translator has the same shape:
give each struct the runtime reads in its layout, call, report each struct
it wrote back in the caller's; the copying is stubs/cudart/layout/layout.c's.
"""

from emit_c import c_file_opening
from records import param_decl

DIRECTION_READS = ("give", "inout")
DIRECTION_WRITES = ("report", "inout")


def layout_ref(lib, col):
    return "&cudastub_%s_layout_%s" % (lib, col.c_name)


def _slots(cells):
    """The parameters some route of the function translates, in order, and
    for each its family, build column and direction."""
    slots = {}
    for cell in cells.values():
        for route in cell.routes:
            for index, family, col_b, _col_r, direction in route.translated:
                slots[index] = (family, col_b, direction)
    return [(i,) + slots[i] for i in sorted(slots)]


def _route_layouts(route, slots):
    """The runtime's column for each slot as this route calls it, or None
    where this route passes the caller's struct as it is (the same layout
    in its major; another route translates that parameter)."""
    cols = {i: col_r for i, _f, _b, col_r, _d in route.translated}
    return [cols.get(index) for index, _family, _col_b, _direction in slots]


def emit_routes(spec, build, cells_by_name, families, header_note):
    lib = spec.library
    out = c_file_opening(header_note, lib, ("stddef.h", "string.h"), ("layout.h",))
    if families and families.by_name:
        out.append('#include "%s_layout_tables.h"' % lib)
    out.append("")
    out += _layout_checks(build, families)
    for name in sorted(cells_by_name):
        cells = cells_by_name[name]
        if not any(c.routes for c in cells.values()):
            continue
        fn = build.functions[name]
        slots = _slots(cells)
        out.append("/* %s: %s */" % (name, describe(cells, name)))
        out.append("static const struct cudastub_route %s_routes[] = {" % name)
        for major in sorted(cells):
            for route in cells[major].routes:
                if route.as_is:
                    layouts = "NULL"
                else:
                    cols = _route_layouts(route, slots)
                    layouts = "(const struct cudastub_layout *const[]){%s}" % ", ".join(
                        layout_ref(lib, c) if c else "NULL" for c in cols)
                out.append('\t{%d, "%s", %s},' % (major, route.name, layouts))
        out.append("\t{0, NULL, NULL},")
        out.append("};")
        translator, query = "NULL", "NULL"
        if slots:
            out += _translator(spec, fn, slots, families)
            translator = "(void *)%s_translated" % name
            q = _query(spec, fn, slots)
            if q:
                query = '"%s"' % q[0]
            state = "&%s_state" % name
        else:
            state = "NULL"
        out += ["", "%s_fn cudastub_%s_route_%s(const struct cudastub_release *release)"
                % (name, lib, name), "{",
                "\t%s_fn fn;" % name, "",
                "\t*(void **)&fn = cudastub_route_choose(release, \"%s\", %s_routes," % (name, name),
                "\t\t\t\t\t%s, %s, %s);" % (state, translator, query),
                "\treturn fn;", "}", ""]
    return "\n".join(out)


def _layout_checks(build, families):
    """The tables of the build's own major, checked against the headers it
    is compiled with: a header whose layout is not its record's fails the
    build instead of being copied wrongly."""
    if not families or not families.by_name:
        return []
    out = ["/* This major's layouts as the tables give them, checked against its headers */"]
    for fam in families.by_name.values():
        for col in fam.columns:
            if col.abi is not build:
                continue
            out.append('_Static_assert(sizeof(%s) == %d, "%s: size");' % (col.key, col.size, col.key))
            for field in fam.fields:
                if field not in col.fields:
                    continue
                off, size, _t = col.fields[field]
                out.append('_Static_assert(offsetof(%s, %s) == %d && sizeof(((%s *)0)->%s) == %d, '
                           '"%s.%s");' % (col.key, field, off, col.key, field, size, col.key, field))
    out.append("")
    return out


def _query(spec, fn, slots):
    """(function, parameter index) asking for fields a runtime's struct
    lacks, when a struct the runtime writes has a query."""
    for _index, family, _col_b, direction in slots:
        q = family.spec.query
        if direction in DIRECTION_WRITES and q:
            for i, p in enumerate(fn.params):
                if p.name == q[1]:
                    return q[0], i
    return None


def _translator(spec, fn, slots, families):
    lib, name = spec.library, fn.name
    args = fn.arg_names()
    translated = {index: (j, family, col_b, direction)
                  for j, (index, family, col_b, direction) in enumerate(slots)}
    call_params = []
    for i, p in enumerate(fn.params):
        if i in translated:
            call_params.append("const void *" if p.canonical.startswith("const ") else "void *")
        else:
            call_params.append(param_decl(p.spelling, "").rstrip())
    q = _query(spec, fn, slots)
    out = ["static struct cudastub_route_state %s_state;" % name, "",
           "static %s %s_translated(%s)" % (fn.ret, name, fn.parameters()), "{",
           "\tconst struct cudastub_layout *const *theirs = cudastub_route_layouts(&%s_state);"
           % name,
           "\t%s (*call)(%s);" % (fn.ret, ", ".join(call_params))]
    for index, (j, _family, _col_b, _d) in sorted(translated.items()):
        out.append("\tunion cudastub_%s_layout_room room%d;" % (lib, j))
        out.append("\t%svoid *p%d = %s;" % ("const " if fn.params[index].canonical.startswith("const ")
                                           else "", j, args[index]))
    out += ["\t%s result;" % fn.ret, "",
            "\t*(void **)&call = cudastub_route_function(&%s_state);" % name]
    for index, (j, _family, col_b, direction) in sorted(translated.items()):
        a = args[index]
        if direction in DIRECTION_READS:
            cast = "" if fn.params[index].canonical.startswith("const ") else "(void *)"
            out += ["\tif (%s && theirs[%d] &&" % (a, j),
                    "\t    !(p%d = %scudastub_layout_give(%s, %s, theirs[%d], &room%d)))"
                    % (j, cast, layout_ref(lib, col_b), a, j, j),
                    "\t\treturn (%s)cudastub_route_refused(&cudastub_%s_library);"
                    % (fn.ret, lib)]
        else:
            out += ["\tif (%s && theirs[%d]) {" % (a, j),
                    "\t\tmemset(&room%d, 0, theirs[%d]->size);" % (j, j),
                    "\t\tp%d = &room%d;" % (j, j), "\t}"]
    call_args = ["p%d" % translated[i][0] if i in translated else args[i]
                 for i in range(len(fn.params))]
    out.append("\tresult = call(%s);" % ", ".join(call_args))
    writes = [(i, t) for i, t in sorted(translated.items()) if t[3] in DIRECTION_WRITES]
    if writes:
        query = "cudastub_route_query(&%s_state), %s" % (name, args[q[1]]) if q else "NULL, 0"
        out.append("\tif ((int)result != 0)")
        out.append("\t\treturn result;")
        for index, (j, _family, col_b, direction) in writes:
            out += ["\tif (%s && theirs[%d] &&" % (args[index], j),
                    "\t    cudastub_layout_report(theirs[%d], &room%d, %s, %s,"
                    % (j, j, layout_ref(lib, col_b), args[index]),
                    "\t\t\t\t\t\t   %s))" % query,
                    "\t\treturn (%s)cudastub_route_refused(&cudastub_%s_library);" % (fn.ret, lib)]
    out += ["\treturn result;", "}"]
    return out


def describe(cells, name):
    """A cell's routes in words, for comments and tables."""
    parts = []
    for major in sorted(cells):
        for route in cells[major].routes:
            how = "as it is" if route.as_is else "translated"
            parts.append("on %d %s%s" % (major, "" if route.name == name else route.name + " ", how))
    return "; ".join(parts)


def emit_layout_tables(spec, families, header_note):
    """The families' tables (C) and their declarations (header)."""
    lib = spec.library
    guard = "CUDASTUB_%s_LAYOUT_TABLES_H" % lib.upper()
    h = [header_note, "#ifndef %s" % guard, "#define %s" % guard, "", "#include <stddef.h>", "",
         '#include "layout.h"', "",
         "/* Room for any layout below: what a translator copies a struct into. */",
         "union cudastub_%s_layout_room {" % lib, "\tmax_align_t align;",
         "\tunsigned char bytes[%d];" % families.room(), "};", ""]
    c = [header_note, "", '#include "%s_layout_tables.h"' % lib, ""]
    for fam in families.by_name.values():
        h.append("extern const struct cudastub_layout_family cudastub_%s_family_%s;" % (lib, fam.name))
        c.append("/* %s: %s */" % (fam.name, ", ".join(
            "%s in %d.%d (%d bytes)" % (col.key, col.major, col.abi.minor, col.size)
            for col in fam.columns)))
        c.append("static const unsigned char %s_policies[] = {" % fam.name)
        for field in fam.fields:
            c.append("\tCUDASTUB_LAYOUT_%s, /* %s */" % (fam.spec.policy(field).upper(), field))
        c.append("};")
        c.append("const struct cudastub_layout_family cudastub_%s_family_%s = {" % (lib, fam.name))
        c.append("\t%d, %s_policies," % (len(fam.fields), fam.name))
        c.append("};")
        for col in fam.columns:
            h.append("extern const struct cudastub_layout cudastub_%s_layout_%s;" % (lib, col.c_name))
            c.append("const struct cudastub_layout cudastub_%s_layout_%s = {" % (lib, col.c_name))
            c.append("\t&cudastub_%s_family_%s, %d, %d," % (lib, fam.name, col.major, col.size))
            places = []
            for field in fam.fields:
                off, size, _t = col.fields.get(field, (0, 0, None))
                places.append("{%d, %d}" % (off, size))
            c.append("\t(const struct cudastub_layout_place[]){")
            c += _wrap(places, "\t\t")
            c.append("\t},")
            ids = families.query_ids(col)
            if ids is None:
                c.append("\tNULL,")
            else:
                c.append("\t(const int[]){")
                c += _wrap([str(i) for i in ids], "\t\t")
                c.append("\t},")
            nested = []
            for field in fam.fields:
                if field in col.fields and families.nested(col.fields[field][2]):
                    nested.append(layout_ref(lib, families.nested_column(col, field)))
                else:
                    nested.append("NULL")
            if any(n != "NULL" for n in nested):
                c.append("\t(const struct cudastub_layout *const[]){%s}," % ", ".join(nested))
            else:
                c.append("\tNULL,")
            c.append("};")
        c.append("")
        h.append("")
    return _c_and_header(c, h)


def _c_and_header(c, h):
    """A table file and its header, whose include guard this closes."""
    return "\n".join(c), "\n".join(h + ["#endif", ""])


def _wrap(items, indent, width=92):
    lines, cur = [], ""
    for item in items:
        piece = item + ","
        if cur and len(indent) * 8 + len(cur) + 1 + len(piece) > width:
            lines.append(indent + cur)
            cur = piece
        else:
            cur = piece if not cur else cur + " " + piece
    if cur:
        lines.append(indent + cur)
    return lines


def emit_enum_tables(spec, abis, header_note):
    """The values each recorded version's headers define for the spec's
    further enums (spec: enum), newest first: stubs/cudart/layout/enum_values.h
    looks a runtime's version up in them."""
    lib = spec.library
    guard = "CUDASTUB_%s_ENUMS_H" % lib.upper()
    h = [header_note, "#ifndef %s" % guard, "#define %s" % guard, "", '#include "enum_values.h"', ""]
    c = [header_note, "", '#include "%s_enums.h"' % lib, ""]
    for enum in spec.enums:
        h.append("/* enum %s, by version (newest first; ends with major 0) */" % enum)
        h.append("extern const struct cudastub_enum_values cudastub_%s_enum_%s[];" % (lib, enum))
        c.append("const struct cudastub_enum_values cudastub_%s_enum_%s[] = {" % (lib, enum))
        for abi in sorted(abis, key=lambda a: (-a.major, -a.minor)):
            values = sorted({v for _c, v in abi.enums.get(enum, ())})
            if not values:
                continue
            c.append("\t{%d, %d, %d, (const int[]){" % (abi.major, abi.minor, len(values)))
            c += _wrap([str(v) for v in values], "\t\t")
            c.append("\t}},")
        c.append("\t{0, 0, 0, NULL},")
        c.append("};")
        c.append("")
    return _c_and_header(c, h)
