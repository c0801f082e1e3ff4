"""Struct layouts as data: what stubs/cudart/layout/layout.h copies between majors.

A family is one struct the spec names with `layout` (and its aliases), as
every recorded major lays it out. Its fields are the union of the field
names of all its layouts; a layout lacks the fields its major does not
have. Field i of one layout is field i of every other, so the engine
translates index by index, by name, never by position.

A field that is itself a family (cudaMemAllocNodeParams.poolProps) is
translated recursively; any other field is bytes, copied up to the smaller
of its two sizes. A struct-typed field of bytes must have the same layout
in every major, or a policy in the spec saying what its lost bytes mean
(cudaResourceDesc.res, a union that 13 widened with a reserved member).
"""

import re

TAG = re.compile(r"^(?:const\s+)?(struct|union)\s+(\S+)$")


def record_name(abi, tag):
    """The record's key for a struct or union tag, or None."""
    for kind in ("struct", "union"):
        if "%s %s" % (kind, tag) in abi.structs:
            return "%s %s" % (kind, tag)
    return None


def tag_of(type_name):
    """'struct cudaMemPoolProps' -> 'cudaMemPoolProps'; None for other types."""
    m = TAG.match(type_name.strip())
    return m.group(2) if m else None


class Column:
    """One layout of a family: a (major, struct name) pair of the records."""

    def __init__(self, family, abi, key):
        self.family, self.abi, self.key = family, abi, key
        self.major = abi.major
        rec = abi.structs[key]
        if rec[0] == "opaque":
            raise SystemExit("layout %s: %s is opaque in CUDA %d.%d"
                             % (family.name, key, abi.major, abi.minor))
        self.size = int(rec[0])
        self.fields = {}  # name -> (offset, size, type)
        for off, size, typ, name in rec[1:]:
            if not name:
                raise SystemExit("layout %s: an unnamed field in %s (CUDA %d.%d)"
                                 % (family.name, key, abi.major, abi.minor))
            self.fields[name] = (off, size, typ)

    @property
    def c_name(self):
        """The generated constant's name: the family and the record's own
        name when it is an alias (cudaTextureDesc_v2)."""
        tag = self.key.split(" ", 1)[1]
        base = self.family.name if tag == self.family.name else "%s_as_%s" % (self.family.name, tag)
        return "%s_%d" % (base, self.major)


class Family:
    """One translated struct across the build records of every major."""

    def __init__(self, layout_spec, builds):
        self.name = layout_spec.name
        self.spec = layout_spec
        self.columns = []
        for abi in builds:
            for tag in [self.name] + layout_spec.aliases:
                key = record_name(abi, tag)
                if key:
                    self.columns.append(Column(self, abi, key))
        if not self.columns:
            raise SystemExit("layout %s: no record has it" % self.name)
        # newest major's order first, then what only older ones have
        self.fields = []
        for col in sorted(self.columns, key=lambda c: -c.major):
            for name, (off, _size, _typ) in sorted(col.fields.items(), key=lambda kv: kv[1][0]):
                if name not in self.fields and layout_spec.policy(name) != "padding":
                    self.fields.append(name)
        every = {name for col in self.columns for name in col.fields}
        for name in list(layout_spec.policies) + list(layout_spec.queries):
            if name not in every:
                raise SystemExit("layout %s: no field %s in any record" % (self.name, name))

    def column(self, abi, key):
        for col in self.columns:
            if col.major == abi.major and col.key == key:
                return col
        return None


class Families:
    """Every family of a spec, and the checks that make them safe to copy."""

    def __init__(self, spec, builds):
        self.spec = spec
        self.by_name = {name: Family(ls, builds) for name, ls in sorted(spec.layouts.items())}
        for fam in self.by_name.values():
            self._check_byte_fields(fam)

    def nested(self, typ):
        """The family a field of type typ is, when it is one."""
        tag = tag_of(typ)
        ls = self.spec.layout_of.get(tag) if tag else None
        return self.by_name[ls.name] if ls else None

    def of_param(self, canonical):
        """For '[const] struct X *' where X is a family: (family, const)."""
        m = re.match(r"^(const\s+)?(struct|union)\s+(\w+)\s*\*$", canonical.strip())
        if not m or m.group(3) not in self.spec.layout_of:
            return None
        return self.by_name[self.spec.layout_of[m.group(3)].name], bool(m.group(1))

    def _check_byte_fields(self, fam):
        """A struct-typed field copied as bytes must be the same in every
        major that has it, unless the spec says what its lost bytes mean."""
        for field in fam.fields:
            seen = set()
            for col in fam.columns:
                if field not in col.fields:
                    continue
                typ = col.fields[field][2]
                if self.nested(typ):
                    continue
                base = re.sub(r"\[\d+\]$", "", typ)
                key = record_name(col.abi, tag_of(base)) if tag_of(base) else None
                seen.add((typ.replace(base, key or base), col.abi.layout(key) if key else None))
            if len({s[1] for s in seen}) > 1 and field not in fam.spec.policies:
                raise SystemExit("layout %s: field %s is a struct whose layout differs between "
                                 "majors; make it a layout, or give it a policy" % (fam.name, field))

    def same_shape(self, a, b):
        """Whether two columns of one family place every byte alike."""
        if a.size != b.size:
            return False
        for field in a.family.fields:
            pa, pb = a.fields.get(field), b.fields.get(field)
            if (pa is None) != (pb is None):
                return False
            if pa is None:
                continue
            if pa[:2] != pb[:2]:
                return False
            fam = self.nested(pa[2])
            if fam:
                na, nb = self.nested_column(a, field), self.nested_column(b, field)
                if not self.same_shape(na, nb):
                    return False
        return True

    def nested_column(self, col, field):
        """The column of a nested family's field in col's major."""
        fam = self.nested(col.fields[field][2])
        key = record_name(col.abi, tag_of(col.fields[field][2]))
        found = fam.column(col.abi, key)
        if not found:
            raise SystemExit("layout %s.%s: %s is not recorded for CUDA %d"
                             % (col.family.name, field, key, col.major))
        return found

    def query_ids(self, col):
        """The enumerator each field is asked with, in col's major's
        headers (-1: not asked there), or None when the family asks none."""
        ls = col.family.spec
        if not ls.query or not ls.queries:
            return None
        enum = ls.query[2]
        ids = []
        for field in col.family.fields:
            constant = ls.queries.get(field)
            value = col.abi.enum_value(enum, constant) if constant else None
            ids.append(-1 if value is None else value)
        if not any(other.abi.enum_value(enum, c) is not None for c in ls.queries.values()
                   for other in col.family.columns):
            raise SystemExit("layout %s: no record has enum %s (spec: enum %s)"
                             % (col.family.name, enum, enum))
        return ids

    def room(self):
        """Bytes enough for any layout of any family."""
        return max([c.size for f in self.by_name.values() for c in f.columns] or [0])
