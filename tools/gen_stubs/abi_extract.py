"""Read a CUDA header with libclang and describe its ABI as records.

A record file has one line per fact, tab-separated, in a fixed order
(functions by name, each followed by its parameters; then structs by name,
each followed by its fields; then enums), so that the diff between two
majors reads as a changelog:

  fn       NAME  RETURN  CANONICAL
  arg      FUNCTION  INDEX  CANONICAL  SPELLING  NAME
  struct   NAME  SIZE  ALIGNMENT
  field    STRUCT  OFFSET  SIZE  TYPE  NAME
  enum     ENUM  CONSTANT  VALUE
  typedef  NAME  ENUM
  const    MACRO  VALUE

RETURN is the return type as the header spells it, CANONICAL the same with
every typedef resolved. Each parameter is one `arg` line: its canonical
type (what the ABI sees), its type as the header spells it (what the
declarations use) and its name in the header (empty when it has none). A
struct of unknown layout has SIZE and ALIGNMENT "opaque". Every struct and
enum a function reaches, by pointer or by value, through parameters,
fields and callbacks, is recorded: the structs' layouts decide whether two
majors share a function's ABI, and the enums' values are what the stubs'
C is compiled with (emit_declarations.py). An enum is named as the
canonical types name it ("enum cudaError", or "ncclResult_t" for one
without a tag); a `typedef` line names one the spec asks for by another
name. A `const` line is the value of a macro the spec names
(version_macros: CUDNN_MAJOR), an integer the headers define.
"""

import re

import clang.cindex as ci

from records import include_lines

_RECORD_KINDS = (ci.TypeKind.RECORD,)
_ANON = re.compile(r"\((unnamed|anonymous) at ")
# the folder part of "(unnamed at /x/y/driver_types.h:1185:5)"
_ANON_PATH = re.compile(r"\((unnamed|anonymous) at [^)]*/([^/)]*)\)")


def _strip(t):
    """The type a parameter ultimately refers to: no pointers, no arrays."""
    while True:
        t = t.get_canonical()
        if t.kind == ci.TypeKind.POINTER:
            t = t.get_pointee()
        elif t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
            t = t.element_type
        else:
            return t


def _record_name(t):
    return t.get_canonical().spelling.replace("const ", "").replace("volatile ", "")


class AbiRecords:
    def __init__(self):
        self.functions = {}  # name -> (ret, abi, [(canonical, spelling, name)], uses)
        self.structs = {}  # name -> (size, alignment, [(offset, size, type, field)])
        self.enums = {}  # canonical name -> [(constant, value)]
        self.enum_typedefs = {}  # a name the spec asks for -> the canonical name
        self.consts = {}  # a macro the spec names (version_macros) -> its value
        self.anon = {}  # clang's spelling of an anonymous record -> stable name

    def _walk_struct(self, t, seen, stable=None):
        """Records t's layout and every record it embeds or points to.
        An anonymous record is named by where it sits (stable: the parent
        and the field), never by clang's "(unnamed at FILE:LINE)", which
        would tie the records to where the headers lie and make a moved line
        look like a changed ABI."""
        t = _strip(t)
        if t.kind == ci.TypeKind.FUNCTIONPROTO:
            for a in t.argument_types():
                self._walk_struct(a, seen)
            self._walk_struct(t.get_result(), seen)
            return
        if t.kind == ci.TypeKind.ENUM:
            self.add_enum(t.get_declaration(), _record_name(t))
            return
        if t.kind not in _RECORD_KINDS:
            return
        name = _record_name(t)
        if _ANON.search(name):
            if stable:
                self.anon[name] = stable
                name = stable
            else:
                name = _ANON_PATH.sub(r"(\1 at \2)", name)
        if name in seen:
            return
        seen.add(name)
        size = t.get_size()
        decl = t.get_declaration()
        fields = []
        if size > 0:
            bare = name.split(" ", 1)[-1]
            for i, f in enumerate(decl.type.get_fields()):
                if f.is_bitfield():
                    raise SystemExit("%s.%s: a bit-field; records have no place for one yet"
                                     % (name, f.spelling))
                off = f.get_field_offsetof() // 8
                raw = f.type.get_canonical().spelling
                kind = "union" if _strip(f.type).spelling.startswith("union") else "struct"
                child = "%s %s::%s" % (kind, bare, f.spelling or "(anonymous %d)" % i)
                fields.append((off, f.type.get_size(), raw, f.spelling))
                self._walk_struct(f.type, seen, child)
        if size > 0:
            self.structs[name] = (size, t.get_align(), fields)
        else:
            self.structs[name] = ("opaque", "opaque", fields)

    def add_function(self, cur):
        if cur.type.kind == ci.TypeKind.FUNCTIONPROTO and cur.type.is_function_variadic():
            raise SystemExit("%s: variadic; a forwarder cannot be generated for it" % cur.spelling)
        params = []
        seen = set()
        for a in cur.get_arguments():
            params.append((a.type.get_canonical().spelling, a.type.spelling, a.spelling))
            self._walk_struct(a.type, seen)
        self._walk_struct(cur.result_type, seen)
        self.functions[cur.spelling] = (cur.result_type.spelling,
                                        cur.result_type.get_canonical().spelling, params)

    def add_enum(self, cur, name):
        if name in self.enums:
            return
        self.enums[name] = [(c.spelling, c.enum_value) for c in cur.get_children()
                            if c.kind == ci.CursorKind.ENUM_CONSTANT_DECL]

    def lines(self):
        out = []
        for name, (ret, canonical, params) in sorted(self.functions.items()):
            out.append("fn\t%s\t%s\t%s" % (name, ret, canonical))
            for i, (canonical, spelling, pname) in enumerate(params):
                out.append("arg\t%s\t%d\t%s\t%s\t%s" % (name, i, canonical, spelling, pname))
        for name, (size, align, fields) in sorted(self.structs.items()):
            out.append("struct\t%s\t%s\t%s" % (name, size, align))
            for off, fsize, ftype, fname in fields:
                out.append("field\t%s\t%d\t%d\t%s\t%s" % (name, off, fsize, ftype, fname))
        for enum in sorted(self.enums):
            for const, value in self.enums[enum]:
                out.append("enum\t%s\t%s\t%d" % (enum, const, value))
        for name, enum in sorted(self.enum_typedefs.items()):
            out.append("typedef\t%s\t%s" % (name, enum))
        for name, value in sorted(self.consts.items()):
            out.append("const\t%s\t%d" % (name, value))
        return [self._stable(line) for line in out]

    def _stable(self, line):
        for raw in sorted(self.anon, key=len, reverse=True):
            line = line.replace(raw, self.anon[raw])
        return _ANON_PATH.sub(r"(\1 at \2)", line)



def _parse(headers, include_dirs, defines, predefine, after_dirs, macros=False):
    src = "".join(line + "\n" for line in include_lines(headers, predefine))
    args = ["-x", "c", "-std=c11"] + ["-I" + d for d in include_dirs]
    args += ["-idirafter" + d for d in after_dirs]
    args += ["-D" + d for d in defines]
    options = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD if macros else 0
    tu = ci.Index.create().parse("cudastub_abi.c", args=args, options=options,
                                 unsaved_files=[("cudastub_abi.c", src)])
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        raise SystemExit("libclang could not parse %s:\n  %s" % (", ".join(headers), "\n  ".join(str(e) for e in errors)))
    return tu


def _enum_decl(cur):
    """The enum a cursor defines or names by typedef, or None."""
    if cur.kind == ci.CursorKind.ENUM_DECL and cur.is_definition():
        return cur
    if cur.kind == ci.CursorKind.TYPEDEF_DECL:
        enum = cur.underlying_typedef_type.get_canonical().get_declaration()
        if enum.kind == ci.CursorKind.ENUM_DECL:
            return enum
    return None


def _macro_value(cur):
    """A macro's value when it is one integer literal (CUDNN_MAJOR 9), else
    None."""
    tokens = [t.spelling for t in cur.get_tokens()][1:]
    if len(tokens) == 1 and re.fullmatch(r"[0-9]+[uUlL]*", tokens[0]):
        return int(re.sub(r"[uUlL]+$", "", tokens[0]))
    return None


def _collect(tu, rec, own_files, enums, only_new=False, macros=()):
    for cur in tu.cursor.get_children():
        loc = cur.location.file
        base = loc.name.rsplit("/", 1)[-1] if loc else None
        if cur.kind == ci.CursorKind.MACRO_DEFINITION:
            if cur.spelling in macros and _macro_value(cur) is not None:
                rec.consts[cur.spelling] = _macro_value(cur)
        elif cur.kind == ci.CursorKind.FUNCTION_DECL and base in own_files:
            if not (only_new and cur.spelling in rec.functions):
                rec.add_function(cur)
        elif cur.spelling in enums and cur.spelling not in rec.enum_typedefs:
            enum = _enum_decl(cur)
            if enum is not None:
                canonical = _record_name(enum.type)
                rec.add_enum(enum, canonical)
                if canonical != cur.spelling:
                    rec.enum_typedefs[cur.spelling] = canonical


def extract(headers, include_dirs, enums=(), variants=(), context=(), predefine=None,
            after_dirs=(), macros=()):
    """Parses headers as C and returns the AbiRecords of the functions they
    declare themselves (not those of headers they include, nor the context
    headers included before them), and the values of each enum named in
    enums (by its tag or typedef name) wherever it is defined. Each variant
    (a -D definition) parses them again and adds the names the headers'
    macros then declare: with CUDA_API_PER_THREAD_DEFAULT_STREAM=1 the
    _ptds/_ptsz names, with cuda.h's __CUDA_API_VERSION_INTERNAL the legacy
    names behind each _vN macro. predefine maps a header to macros defined
    just before it is included (Spec.predefine). after_dirs are searched
    last, after the system's folders: stand-ins for a header only where
    none is found. macros are read as integers (version_macros); one the
    headers do not define that way is an error."""
    own_files = {h.rsplit("/", 1)[-1] for h in headers}
    everything = list(context) + list(headers)
    rec = AbiRecords()
    predefine = predefine or {}
    _collect(_parse(everything, include_dirs, (), predefine, after_dirs, bool(macros)), rec,
             own_files, set(enums), macros=set(macros))
    missing = sorted(set(macros) - set(rec.consts))
    if missing:
        raise SystemExit("version_macros: %s: no integer definition in %s"
                         % (", ".join(missing), ", ".join(headers)))
    for define in variants:
        _collect(_parse(everything, include_dirs, (define,), predefine, after_dirs), rec, own_files, set(),
                 only_new=True)
    return rec
