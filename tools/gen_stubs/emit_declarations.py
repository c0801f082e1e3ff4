"""A library's C declarations for one stub ABI, from its ABI record alone.

The stubs are built without NVIDIA's headers: what their C needs of a
library (the enums, the structs its functions reach, the typedefs its
headers spell them with, its prototypes) is written here from the record
of that release, which abi_extract.py read from the headers. Every
struct's size, alignment and field offsets are checked where the struct
is declared (_Static_assert), so a record the compiler would lay out
otherwise fails the build, never a call. The record itself is checked
against NVIDIA's headers where they are at hand (the regeneration test
reproduces it from them).
"""

import re

from records import base_type, param_decl, types_in

# typedef names the C library declares (stddef.h, stdint.h, wchar.h)
_STANDARD = {"size_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
             "uint16_t", "uint32_t", "uint64_t", "intptr_t", "uintptr_t", "wchar_t"}
_BUILTIN = {"void", "char", "short", "int", "long", "float", "double", "signed", "unsigned",
            "_Bool", "__int128"}
_WORD = re.compile(r"[A-Za-z_]\w*")


def _strip_const(t):
    return re.sub(r"\bconst\b\s*", "", t).strip()


def _nested(name):
    """Whether a record's type is declared inside another (struct X::y,
    union X::(anonymous 2)): written in place, in its field."""
    return "::" in name


def _tagged(name):
    return name.startswith(("struct ", "union ", "enum "))


def _builtin(name):
    return all(w in _BUILTIN for w in name.split())


class Declarations:
    """The declarations of one record (records.Abi) of spec's library."""

    def __init__(self, spec, abi):
        self.spec, self.abi = spec, abi
        self.structs = abi.structs  # name -> [size, (offset, size, type, field)...]
        self.typedefs = {}  # a name as the header spells it -> the type it stands for
        for fn in abi.functions.values():
            self._learn_typedef(fn.ret, fn.ret_canonical)
            for p in fn.params:
                self._learn_typedef(p.spelling, p.canonical)

    def _learn_typedef(self, spelled, canonical):
        """Learns a typedef from one declaration: the type as spelt, the
        same with every typedef resolved."""
        s, c = _strip_const(spelled), _strip_const(canonical)
        array_of = re.fullmatch(r"([A-Za-z_]\w*)\s*(\*\[\]|\*)", s)
        array = re.fullmatch(r"(.*?)\s*\((\*\[\]|\*)\)(\[\d+\])", c)
        if array_of and array and array_of.group(2) == array.group(2):
            # 'curandDirectionVectors32_t *[]' for 'unsigned int (*[])[32]'
            self.typedefs.setdefault(array_of.group(1), array.group(1) + array.group(3))
            return
        pointer_to = re.fullmatch(r"([A-Za-z_]\w*)\s*\*", s)
        if pointer_to and re.fullmatch(r"[^()]*\(\*\)\(.*\)", c):
            # 'VdpGetProcAddress *' for 'int (*)(unsigned int, ...)': the
            # function type itself
            self.typedefs.setdefault(pointer_to.group(1), c.replace("(*)", "(%s)", 1))
            return
        # the same pointers and arrays on both sides: peel them off
        while True:
            m = re.search(r"(\s*\*|\s*\[[^]]*\])$", s)
            if not m or not c.endswith(m.group(1).strip()):
                break
            s, c = s[: m.start()].strip(), c[: -len(m.group(1).strip())].strip()
        if (_WORD.fullmatch(s) and s != c and s not in _STANDARD and not _builtin(s) and
                s not in self.structs and s not in self.abi.canonical_enums):
            self.typedefs.setdefault(s, c)

    # ---- the text ----

    def text(self, note, guard):
        out = [note, "#ifndef %s" % guard, "#define %s" % guard, "",
               "#include <stddef.h>", "#include <stdint.h>", "#include <wchar.h>", ""]
        out += self._enums()
        out += ["%s;" % n for n in sorted(self.structs)
                if n.startswith(("struct ", "union ")) and not _nested(n)] + [""]
        out += self._struct_definitions()
        out += self._typedef_lines()
        out += self._prototypes()
        out += ["", "#endif"]
        return "\n".join(out) + "\n"

    def _enums(self):
        out = []
        for name in self.abi.canonical_enums:
            body = ",\n".join("\t%s = %d" % (c, v) for c, v in self.abi.enums[name])
            if name.startswith("enum "):
                out.append("%s {\n%s\n};" % (name, body))
            else:
                out.append("typedef enum {\n%s\n} %s;" % (body, name))
        return out + [""]

    def _members(self, name, indent):
        lines = []
        for _off, _size, typ, field in self.structs[name][1:]:
            inner = base_type(typ)
            if _nested(inner):
                # declared in place: 'union { ... } handle;', or an
                # anonymous member
                kind = inner.split()[0]
                body = "\n".join(self._members(inner, indent + "\t"))
                declarator = param_decl(typ.replace(inner, "", 1).strip() or "", field).strip()
                lines.append("%s%s {\n%s\n%s}%s;" % (indent, kind, body, indent,
                                                    (" " + declarator) if field else ""))
            else:
                lines.append("%s%s;" % (indent, param_decl(typ, field)))
        return lines

    def _struct_definitions(self):
        """Every struct with a known layout, each after the structs it
        holds by value and the untagged ones it points to (a typedef name
        must be declared before use); an opaque one stays incomplete."""
        done, out = set(), []

        def define(name):
            if name in done or _nested(name):
                return
            done.add(name)
            if self.structs[name][0] == "opaque":
                return
            for inner, by_value in self._needs(name):
                if inner in self.structs and (by_value or not _tagged(inner)):
                    define(inner)
            body = "\n".join(self._members(name, "\t"))
            align = " __attribute__((aligned(%s)))" % self.abi.alignments[name]
            if _tagged(name):
                out.append("%s {\n%s\n}%s;" % (name, body, align))
            else:
                kind = "union" if self._is_union(name) else "struct"
                out.append("typedef %s {\n%s\n}%s %s;" % (kind, body, align, name))
            out.extend(self._layout_checks(name))

        for name in sorted(self.structs):
            define(name)
        return out + [""]

    def _needs(self, name):
        """(type, held by value) for every type name's fields name,
        nested structs' included."""
        for _off, _size, typ, _field in self.structs[name][1:]:
            inner = base_type(typ)
            if _nested(inner) and inner in self.structs:
                yield from self._needs(inner)
                continue
            direct = "*" not in typ and "(" not in typ
            for t in types_in(typ):
                yield t, direct and t == inner

    def _is_union(self, name):
        fields = self.structs[name][1:]
        return len(fields) > 1 and all(off == 0 for off, _s, _t, _n in fields)

    def _layout_checks(self, name):
        out = ["_Static_assert(sizeof(%s) == %s && _Alignof(%s) == %s, \"%s\");"
               % (name, self.structs[name][0], name, self.abi.alignments[name], name)]
        for off, _size, _typ, field in self.structs[name][1:]:
            if field:
                out.append("_Static_assert(offsetof(%s, %s) == %d, \"%s.%s\");"
                           % (name, field, off, name, field))
        return out

    def _typedef_lines(self):
        out = []
        for name in sorted(self.typedefs):
            target = self.typedefs[name]
            if "(%s)" in target:
                out.append("typedef %s;" % (target % name))
            else:
                out.append("typedef %s;" % param_decl(target, name))
        return out + [""]

    def _prototypes(self):
        return ["%s;" % self.abi.functions[n].prototype() for n in sorted(self.abi.functions)
                if n not in self.spec.header_only]


def emit(spec, abi, note):
    """The declarations header of abi's release for spec's library."""
    guard = "CUDASTUB_%s_DECLARATIONS_H" % spec.library.upper()
    return Declarations(spec, abi).text(note, guard)
