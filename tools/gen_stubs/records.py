"""Reading the committed data: ABI records, export lists and stub specs."""

import os
import re

ABI_NAME = re.compile(r"^(?P<lib>[a-z_]+)-(?P<major>\d+)\.(?P<minor>\d+)\.abi$")
_CONST = re.compile(r"\bconst\s+")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# aN, pN and roomN are the generated bodies' own (emit_c.py, emit_routes.py)
_NUMBERED = re.compile(r"^(a|p|room)\d+$")
# what the generated bodies declare, besides those (a parameter of that
# name would hide it)
GENERATED_LOCALS = frozenset((
    "answer", "call", "name", "result", "s", "theirs", "why", "memset", "lib", "fn"))
C_KEYWORDS = frozenset((
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "_Bool", "_Complex", "_Imaginary",
    "bool", "true", "false"))


class Param:
    """One parameter: canonical type (what the ABI sees), type as the header
    spells it, and its name in the header ("" when it has none)."""

    def __init__(self, canonical, spelling, name):
        self.canonical, self.spelling, self.name = canonical, spelling, name

    def declare(self, name):
        """The parameter's declaration with name in it, as C wants it."""
        return param_decl(self.spelling, name)


class Function:
    """One function: its name, return type as spelt and canonical, and its
    parameters (Param). abi (its canonical type) and uses (the structs it
    reaches) are worked out from those and the record's structs."""

    def __init__(self, name, ret, ret_canonical):
        self.name, self.ret, self.ret_canonical = name, ret, ret_canonical
        self.params = []
        self.abi = None
        self.uses = []

    def settle(self, structs):
        """Fills abi and uses once every parameter is read."""
        args = ", ".join(p.canonical for p in self.params) or "void"
        self.abi = "%s (%s)" % (self.ret_canonical, args)
        self.uses = sorted(reached_structs([self.ret_canonical] + [p.canonical for p in self.params],
                                           structs))

    def prototype(self, name=None, arg_names=None):
        """'RET name(TYPE pGraphExec, ...)': arg_names default to the
        header's own names (arg_names())."""
        names = arg_names or self.arg_names()
        params = ", ".join(p.declare(n) for p, n in zip(self.params, names)) or "void"
        sep = "" if self.ret.endswith("*") else " "
        return "%s%s%s(%s)" % (self.ret, sep, name or self.name, params)

    def parameters(self):
        """'TYPE count, TYPE device' (or 'void'): for typedefs of the function."""
        return ", ".join(p.declare(n) for p, n in zip(self.params, self.arg_names())) or "void"

    def arg_names(self):
        """The header's names for the parameters, so that generated code
        reads as NVIDIA's declaration does; aN for one that has none, that
        repeats another, or that could be taken for an identifier the
        generated bodies declare or call (GENERATED_LOCALS)."""
        names, seen = [], set()
        for i, p in enumerate(self.params):
            n = p.name
            if not _IDENTIFIER.match(n or "") or n in seen or n in GENERATED_LOCALS or \
                    n in C_KEYWORDS or n.startswith("cudastub") or _NUMBERED.match(n):
                n = "a%d" % i
            seen.add(n)
            names.append(n)
        return names


class Abi:
    """One version's ABI record file, as written by abi_extract."""

    def __init__(self, path):
        m = ABI_NAME.match(os.path.basename(path))
        self.major, self.minor = int(m["major"]), int(m["minor"])
        self.functions = {}
        self.structs = {}  # name -> [size, (offset, size, type, field), ...]
        self.alignments = {}  # struct name -> its alignment ("opaque": unknown)
        self.enums = {}  # enum -> [(constant, value)] in header order, by every name
        self.canonical_enums = []  # the names enums are recorded under
        self.consts = {}  # macro -> its value in the headers (spec: version_macros)
        with open(path) as f:
            for line in f:
                if line.startswith("#"):
                    continue
                cols = line.rstrip("\n").split("\t")
                if cols[0] == "fn":
                    self.functions[cols[1]] = Function(cols[1], cols[2], cols[3])
                elif cols[0] == "arg":
                    self.functions[cols[1]].params.append(Param(cols[3], cols[4], cols[5]))
                elif cols[0] == "struct":
                    self.structs[cols[1]] = [cols[2]]
                    self.alignments[cols[1]] = cols[3]
                elif cols[0] == "field":
                    self.structs[cols[1]].append((int(cols[2]), int(cols[3]), cols[4], cols[5]))
                elif cols[0] == "enum":
                    if cols[1] not in self.enums:
                        self.canonical_enums.append(cols[1])
                    self.enums.setdefault(cols[1], []).append((cols[2], int(cols[3])))
                elif cols[0] == "typedef":
                    self.enums[cols[1]] = self.enums[cols[2]]
                elif cols[0] == "const":
                    self.consts[cols[1]] = int(cols[2])
        for fn in self.functions.values():
            fn.settle(self.structs)

    def identity(self, name, unsized=()):
        """What must be equal for two versions to share name's ABI: the
        canonical prototype, and the size, offsets and field types of every
        struct it reaches but those in unsized (Spec.library_sized). Field
        names are left out: a renamed field (a reserved one given a use)
        moves no byte. So are const qualifiers: a pointer to const is
        passed as the same bytes, in the same register (cuSPARSE 12.0 made
        its descriptors' handles pointers to const: cusparseConstSpMatDescr_t,
        taken by cusparseSpMV, is 11.x's cusparseSpMatDescr_t to the caller
        and to the library)."""
        fn = self.functions[name]
        return (_CONST.sub("", fn.abi),
                tuple((u, self.layout(u)) for u in fn.uses if u not in unsized))

    def layout(self, struct):
        rec = self.structs.get(struct, ())
        return tuple(rec[:1]) + tuple((off, size, typ) for off, size, typ, _name in rec[1:])

    def enum_value(self, enum, constant):
        """The value of constant in enum in this version's headers, or None."""
        for c, v in self.enums.get(enum, ()):
            if c == constant:
                return v
        return None


def base_type(t):
    """The type t names before pointers, arrays and qualifiers:
    'const struct X *[3]' -> 'struct X'."""
    t = re.sub(r"\bconst\b\s*", "", t)
    t = re.sub(r"\[[^]]*\]", "", t)
    return t.replace("*", "").strip()


def types_in(t):
    """t's base type and, for a function pointer, those of its return and
    parameter types."""
    if "(*" not in t:
        return [base_type(t)]
    head, _, rest = t.partition("(*")
    out = [base_type(head)]
    args = rest[rest.find("(") + 1: rest.rfind(")")]
    depth, start = 0, 0
    for i, ch in enumerate(args + ","):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            out += types_in(args[start:i].strip())
            start = i + 1
    return [b for b in out if b and b != "void"]


def reached_structs(types, structs):
    """Every struct of structs that types reach, through fields and
    callbacks, by pointer or by value."""
    found, todo = set(), [b for t in types for b in types_in(t)]
    while todo:
        name = todo.pop()
        if name in found or name not in structs:
            continue
        found.add(name)
        for _off, _size, typ, _field in structs[name][1:]:
            todo += types_in(typ)
    return found


def param_decl(type_spelling, name):
    """Places a parameter name inside its type, as C wants it."""
    if "(*)" in type_spelling:
        return type_spelling.replace("(*)", "(*%s)" % name, 1)
    m = re.search(r"\[", type_spelling)
    if m:
        # "float *const[]": the name goes after a space, not into "const"
        head = type_spelling[: m.start()]
        sep = "" if head.endswith(("*", " ")) else " "
        return "%s%s%s %s" % (head, sep, name, type_spelling[m.start():])
    sep = "" if type_spelling.endswith("*") else " "
    return "%s%s%s" % (type_spelling, sep, name)


def load_abis(abi_dir, lib):
    abis = []
    for entry in sorted(os.listdir(abi_dir)):
        m = ABI_NAME.match(entry)
        if m and m["lib"] == lib:
            abis.append(Abi(os.path.join(abi_dir, entry)))
    return sorted(abis, key=lambda a: (a.major, a.minor))


def load_exports(path):
    """Names a real library exports, or None when there is no list."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def load_notes(spec_path):
    """<lib>.notes, beside the spec: `NAME<TAB>why it is left unadapted`, one a line;
    the README's ABI table quotes them."""
    notes = {}
    path = spec_path[:-len(".spec")] + ".notes"
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    name, _, why = line.rstrip("\n").partition("\t")
                    notes[name.strip()] = why.strip()
    return notes


class Spec:
    """A stub's description: which header, which names need a human.

      library NAME            prefix of everything generated
      header FILE...          the headers to parse (may repeat); the first
                              is the library's own
      include DIR...          repository folders to parse with (shims)
      include_after DIR...    repository folders searched last, after the
                              CUDA and system headers: stand-ins for a header
                              that some release's packaging leaves out
      ptds yes|no             also declare the per-thread-stream variants
      variant DEFINE...       parse again with -DDEFINE, adding new names
      context HEADER...       include these first, recording nothing of them
      predefine HEADER MACRO...
                              define MACRO just before including HEADER, in
                              the parse and in the stub: the include guard
                              of a header HEADER includes that must not be
                              read with the others (cublasXt.h includes
                              cublas_v2.h, which refuses cublas.h)
      adapter FAMILY: NAME... a hand-written adapter may stand in when the
                              loaded major's ABI differs (see emit_c.py);
                              its translators and entries are in
                              stubs/<lib>/adapt_FAMILY.c
      adapter_first FAMILY: NAME...
                              the same, and the adapter is asked first, even
                              when the ABI is the same (it returns NULL to
                              forward)
      adapter_calls NAME...   functions of the real library the adapters
                              call that are not themselves adapted: their
                              forms are generated beside the adapted names'
      result TYPE             the error enum the functions return; none: the
                              library has no status type and its calls
                              succeed as no-ops without it (NVTX with no tool
                              attached): no 'unavailable' lines, and every
                              function that cannot forward, whatever the
                              reason, answers its 'fallback' line's value, or
                              by its return type nothing, NULL or 0
      fallback VALUE[=MACRO] FUNCTION...
                              what FUNCTION returns whenever it cannot
                              forward, whatever the reason: VALUE, a C
                              constant of its return type, in place of its
                              reason's code or the 0 of its type; MACRO names
                              the macro of the library's headers that VALUE
                              is (-2=NVTX_NO_PUSH_POP_TRACKING), which the
                              records cannot hold and the checks compare
                              (<lib>_checks.c); for a
                              function returning a pointer to a struct, VALUE
                              {a,b,...} (no spaces) is a struct of the stub's
                              own it points to (nppGetLibVersion: {0,0,0})
      result_field FIELD ENUM the result is a struct (cuFile's CUfileError_t):
                              its FIELD holds the status, an ENUM (whose
                              names the tables give), its other fields 0
      header_only FUNCTION... static inline helpers the headers define, which
                              no library exports: neither exported nor
                              forwarded (cuFile's cufileop_status_error)
      negative_status FUNCTION...
                              a function that returns a count, or a status
                              negated (cuFileRead): without a library, minus
                              the code
      enum NAME...            further enums whose values the records keep (by
                              tag or typedef name), for the layouts' queries
                              and the adapters' tables
      handwritten NAME ...    exported wrapper written by hand
      custom_fallback NAME... fallback written by hand (probe outputs, strings)
      in_place NAME...        a pure function, whose result depends only on
                              its arguments (cudaCreateChannelDesc): always
                              answered by its custom_fallback, which gives
                              the real library's answer for every argument,
                              and never loads anything
      later_minors yes|no     see gating in gen_stubs.py
      opaque yes|no           also export, without a prototype, what the real
                              library exports and no header declares
      family NAME             file name prefix ("libnvrtc")
      folder NAME             the stub's folder under stubs/ (default: library)
      soname MAJOR NAME       the real library's SONAME for MAJOR (0: one name
                              for every version), newest first; may repeat
      wheel_dir DIR...        pip wheel folders, relative to site-packages
      env PATH_VAR MAJOR_VAR  the override and pin variables
      companion FORMAT        what the real library dlopens beside itself
                              (printf format given major, minor)
      id N                    the library's number in cudastub.h's cudastub_lib
                              (0 cudart, 1 nvrtc, 2 cuda, then in the order
                              libraries were added; a number is never reused)
      alias NAME              the CMake target cudastub::NAME (default: library)
      toolkit_targets T...    FindCUDAToolkit's targets the stub stands in for
                              (CUDA::cublas CUDA::cublas_static)
      shim_dir DIR            where the shim goes under the build (default
                              shim; the driver's is shim/driver)
      version_node yes|no     whether the stub's symbols carry the real
                              library's version node (the driver has none)
      status_names_of LIBRARY the library whose <LIBRARY>_status_names.h the
                              table reads, where both have one result type
                              with the same names in every ABI (NPP's
                              NppStatus: nppc's); checked when generated
      version_query FUNCTION FORM [LIBRARY]
                              how the stub asks a candidate its version, for
                              a stub with no hand-written C: FORM major_minor
                              (FUNCTION(&major, &minor): nvJitLinkVersion),
                              property (FUNCTION(MAJOR_VERSION, &value), and
                              MINOR_VERSION, PATCH_LEVEL: cublasGetProperty)
                              text (FUNCTION(buffer, length) writes
                              "MAJOR.MINOR[.PATCH...]": NVML's
                              nvmlSystemGetNVMLVersion, "12.550.163.01"),
                              value (FUNCTION(&value): cuptiGetVersion,
                              the library's own version being value.0.0),
                              number (FUNCTION(&value), value major * 1000
                              + minor * 10: cuFileGetVersion), returned
                              (FUNCTION() returns the version code:
                              cudnnGetVersion), struct (FUNCTION() returns a
                              pointer to {major, minor, build}:
                              nppGetLibVersion), encoded (FUNCTION(&code):
                              ncclGetVersion; a code is major * 10000 +
                              minor * 100 + patch, or below 10000 major *
                              1000 + minor * 100 + patch: cuDNN 8, NCCL
                              before 2.9) or none (the
                              library has no version query and one ABI in
                              every release, NVTX v2's: a candidate exporting
                              FUNCTION is the library, and it is taken for the
                              stub's own release).
                              LIBRARY: FUNCTION is that library's (its ABI
                              records give the prototype), found among the
                              candidate's dependencies (libcusolverMg asks
                              the cuBLAS it links); the stub does not export it
      version_absent MAJOR    a candidate without the version function is
                              CUDA MAJOR's (cuFile before cuFileGetVersion)
      cuda_release function FUNCTION
      cuda_release marker TEXT
                              for a library whose own version does not say
                              its CUDA release (cuDNN 9 and NCCL 2 are built
                              for several): the CUDA version the candidate
                              was built with, as FUNCTION() returns it
                              (cudnnGetCudartVersion: 13010) or as the text
                              after TEXT in its read-only data says it
                              ("+cuda" in NCCL's "NCCL version 2.28.9+cuda13.0")
      abi_across_releases yes|no
                              the library's ABI is its own major's, one in
                              every CUDA release it is built for (cuDNN 9,
                              NCCL 2): what the build record declares
                              forwards on every CUDA major a soname line
                              names, where the loaded library exports it
      error_string_in_place FUNCTION UNKNOWN
                              an error_name/error_string function whose real
                              answers are the result enum's names (UNKNOWN
                              for any other code): answered by the stub
                              without loading anything (cudnnGetErrorString)
      release MAJOR VERSION   the library's own version VERSION (a.b[.c]) and
                              later ones belong to CUDA MAJOR; without these
                              lines the library's major is CUDA's (cuBLAS,
                              nvJitLink), with them a SONAME may serve several
                              CUDA majors (libcurand.so.10)
      zero_outputs FUNCTION...
                              without a library, the fallback sets every
                              integer the function points to to 0 (probes)
      version_macros MACRO... integer macros of the headers the records keep
                              (const lines: CUDNN_MAJOR), for offline_version
      offline_version FUNCTION EXPR [EXPR EXPR]
                              without a library, FUNCTION answers the version
                              of the release the stub's record is from, as
                              the library answers on a machine with no GPU,
                              for frameworks that check it (cuDNN's, NCCL's):
                              EXPR, a C expression of version_macros, is
                              what FUNCTION() returns, or what FUNCTION(&v)
                              sets v to, returning success; with three, the
                              major, minor and patch FUNCTION(property, &v)
                              sets for MAJOR_VERSION, MINOR_VERSION and
                              PATCH_LEVEL
      error_name FUNCTION...  maps a status to its name: without a library,
                              the name from the result enum
      error_string FUNCTION...
                              the same, and explains the stub's own "no
                              library" code with the failed search's one line
      own_code NAME NUMBER TEXT...
                              a code of the stub's own (the library's result
                              enum has none that fits), defined in cudastub.h
      underscore_exports PREFIX...
                              the library's API has names starting with "_"
                              (__cuda, __nvJitLink): its export list keeps
                              them (others are the toolchain's)
      what WORDS...           what the library is, in messages ("the runtime";
                              default: its family, "libnvJitLink")
      release_preference yes|no
                              whether the search tries first the majors of
                              the CUDA release the process already has (its
                              CUDA libraries, else its driver); yes unless
                              the library is the driver itself. The
                              driver's version is read from its file's name
                              where that says it, else the driver is loaded
                              and asked
      same_function NAME NAME...
                              one function under the names the majors give
                              it: where the loaded major does not take the
                              first name as it is, it is called under the
                              others, as it is or with its structs
                              translated (see routes.py)
      layout STRUCT [ALIAS...]
                              a struct whose layout differs between majors,
                              copied field by field and by name between them
                              (stubs/cudart/layout/layout.h); an ALIAS is the same
                              struct under another name (cudaTextureDesc_v2)
      layout_field STRUCT FIELD [POLICY] [query ENUMERATOR]
                              POLICY: what a non-zero FIELD does when the other
                              side's layout has no room for it: refuse (the
                              call fails, whichever way the struct goes), drop
                              (left out, either way), given (refused when the
                              caller gives it, left out when the runtime
                              reports it; the default), padding (not a field:
                              its bytes are the layout's padding, never copied,
                              0 in what is written). FIELD * sets the
                              struct's default. query: when the runtime's
                              struct lacks FIELD, it is asked of the runtime
                              with ENUMERATOR (see layout_query)
      layout_query STRUCT FUNCTION ARGUMENT ENUM
                              how a query is asked: the runtime's
                              FUNCTION(&value, ENUMERATOR, ARGUMENT), ARGUMENT
                              being the translated function's parameter of
                              that name and ENUM the enumerators' type
      library_sized STRUCT... structs whose layout is no part of any
                              function's ABI: programs reach them only by
                              pointer, and the library allocates them or is
                              told their size and refuses one too small
                              (cuBLASLt's semi-opaque descriptors,
                              ...Init_internal(desc, sizeof *desc)); a test
                              of the library's own shows the refusal
      inout FUNCTION PARAMETER...
                              struct parameters the runtime reads and writes
                              (otherwise a const pointer is read, and any other
                              written)
      unavailable REASON NUMBER CONSTANT
                              what a call returns when it cannot forward, for
                              each REASON of UNAVAILABLE_REASONS: the number
                              (for the tables) and the C constant (checked
                              against the number at compile time)
    """

    UNAVAILABLE_REASONS = ("library", "function", "abi", "removed")

    def __init__(self, path):
        self.adapter_family = {}  # adapted name -> its adapters' family (spec: adapter)
        self.values = {"handwritten": [], "custom_fallback": [], "later_minors": ["no"],
                       "adapter": [], "adapter_first": [], "adapter_calls": [], "header": [], "variant": [], "context": [],
                       "enum": [], "toolkit_targets": [], "zero_outputs": [], "error_name": [],
                       "error_string": [], "underscore_exports": [], "library_sized": [],
                       "negative_status": [], "header_only": [], "in_place": [],
                       "version_macros": []}
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].split()
                if line:
                    key, rest = line[0], line[1:]
                    if key == "unavailable" and len(rest) == 3:
                        self.values.setdefault(key, {})[rest[0]] = (int(rest[1]), rest[2])
                    elif key == "soname" and len(rest) == 2:
                        self.values.setdefault(key, []).append((int(rest[0]), rest[1]))
                    elif key == "wheel_dir":
                        self.values.setdefault(key, []).extend(rest)
                    elif key in ("same_function", "layout", "layout_field", "layout_query", "inout",
                                 "release", "own_code", "predefine", "fallback",
                                 "offline_version"):
                        self.values.setdefault(key, []).append(rest)
                    elif key in ("adapter", "adapter_first"):
                        if not rest or not rest[0].endswith(":"):
                            raise SystemExit("%s: %s %s: FAMILY: NAME... (its file is "
                                             "adapt_FAMILY.c)" % (path, key, " ".join(rest)))
                        self.values.setdefault(key, []).extend(rest[1:])
                        for name in rest[1:]:
                            self.adapter_family[name] = rest[0][:-1]
                    elif key in ("handwritten", "custom_fallback",
                                 "adapter_calls", "header", "variant", "context", "enum", "toolkit_targets",
                                 "zero_outputs", "error_name", "error_string",
                                 "underscore_exports", "library_sized", "negative_status",
                                 "header_only", "in_place", "version_macros"):
                        self.values[key] += rest
                    else:
                        self.values[key] = rest
        self.library = self.values["library"][0]
        self.headers = self.values["header"]
        self.header = self.headers[0]
        # folders of the repository to parse with, before the CUDA headers
        self.includes = self.values.get("include", [])
        self.includes_after = self.values.get("include_after", [])
        self.variants = self.values.get("variant", [])
        if self.values.get("ptds", ["no"])[0] == "yes":
            self.variants = ["CUDA_API_PER_THREAD_DEFAULT_STREAM=1"] + self.variants
        # included first, for types the headers name but do not include
        self.context = self.values.get("context", [])
        # header -> macros defined just before it is included
        self.predefine = {}
        for words in self.values.get("predefine", []):
            if len(words) < 2 or words[0] not in self.headers + self.context:
                raise SystemExit("%s: predefine %s: HEADER (a header or context line's) MACRO..."
                                 % (path, " ".join(words)))
            self.predefine.setdefault(words[0], []).extend(words[1:])
        self.adapter_first = set(self.values.get("adapter_first", []))
        self.adapters = set(self.values.get("adapter", [])) | self.adapter_first
        self.adapter_calls = set(self.values.get("adapter_calls", []))
        self.result = self.values["result"][0]
        # no status type: calls that cannot forward are no-ops (see result)
        self.no_op = self.result == "none"
        self.fallback_values = {}  # function -> the C value it answers
        self.fallback_macros = {}  # a value -> the macro of NVIDIA's headers that is it
        for words in self.values.get("fallback", []):
            if len(words) < 2:
                raise SystemExit("%s: fallback %s: VALUE FUNCTION..." % (path, " ".join(words)))
            value, _, macro = words[0].partition("=")
            if macro:
                self.fallback_macros[value] = macro
            for name in words[1:]:
                self.fallback_values[name] = value
        rf = self.values.get("result_field")
        self.result_field = rf[0] if rf else None
        # the enum of the statuses: the result, or its status field's
        self.result_enum = rf[1] if rf else self.result
        self.negative_status = set(self.values["negative_status"])
        self.header_only = set(self.values["header_only"])
        self.enums = self.values["enum"]
        self.handwritten = set(self.values["handwritten"])
        self.in_place = set(self.values["in_place"])
        for name in self.in_place - set(self.values["custom_fallback"]):
            raise SystemExit("%s: in_place %s: its answer is a custom_fallback" % (path, name))
        self.custom_fallback = set(self.values["custom_fallback"])
        self.later_minors = self.values["later_minors"][0] == "yes"
        self.exports_prefix = self.values.get("exports", ["lib" + self.library])[0]
        # forward the real library's exports that no header declares
        self.opaque = self.values.get("opaque", ["yes"])[0] == "yes"
        self.unavailable = self.values.get("unavailable", {})
        # the library's description for the loader (emit_c.emit_declarations)
        self.family = self.values["family"][0]
        self.folder = self.values.get("folder", [self.library])[0]
        self.sonames = self.values["soname"]
        self.wheel_dirs = self.values.get("wheel_dir", [])
        self.env_path, self.env_major = self.values["env"]
        self.companion = self.values.get("companion", [None])[0]
        preference = self.values.get("release_preference", ["yes"])[0]
        if preference not in ("yes", "no"):
            raise SystemExit("%s: release_preference is yes or no, not %s" % (path, preference))
        self.release_preference = preference != "no"
        if any(m for m, _ in self.sonames) and 0 in (m for m, _ in self.sonames):
            raise SystemExit("%s: major 0 (any version) goes alone" % path)
        self.id = int(self.values["id"][0])
        self.alias = self.values.get("alias", [self.library])[0]
        self.toolkit_targets = self.values["toolkit_targets"]
        self.shim_dir = self.values.get("shim_dir", ["shim"])[0]
        self.version_node = self.values.get("version_node", ["yes"])[0] == "yes"
        q = self.values.get("version_query")
        self.version_query = (q[0], q[1]) if q else None
        # the library whose function it is, when it is not this one's
        self.version_library = q[2] if q and len(q) > 2 else None
        forms = ("major_minor", "property", "text", "value", "number", "returned", "encoded",
                 "struct", "none")
        if q and q[1] not in forms:
            raise SystemExit("%s: version_query %s: form one of %s"
                             % (path, q[0], ", ".join(forms)))
        # the library whose status names file this one's table reads (the
        # same result type, the same names in every ABI: NPP's NppStatus)
        self.status_names_of = self.values.get("status_names_of", [None])[0]
        absent = self.values.get("version_absent")
        self.version_absent = int(absent[0]) if absent else None
        c = self.values.get("cuda_release")
        self.cuda_release = (c[0], " ".join(c[1:])) if c else None
        if c and (c[0] not in ("function", "marker") or len(c) < 2):
            raise SystemExit("%s: cuda_release function FUNCTION, or marker TEXT" % path)
        self.abi_across_releases = self.values.get("abi_across_releases", ["no"])[0] == "yes"
        self.releases = sorted(((int(r[0]), tuple(int(x) for x in r[1].split("."))) for r in
                                self.values.get("release", [])), reverse=True)
        self.zero_outputs = set(self.values["zero_outputs"])
        self.version_macros = self.values["version_macros"]
        self.offline_version = {w[0]: w[1:] for w in self.values.get("offline_version", [])}
        for name, exprs in self.offline_version.items():
            if len(exprs) not in (1, 3) or not self.version_macros:
                raise SystemExit("%s: offline_version %s: EXPR, or MAJOR MINOR PATCH, of "
                                 "version_macros" % (path, name))
        self.error_name = set(self.values["error_name"])
        self.error_string = set(self.values["error_string"])
        e = self.values.get("error_string_in_place")
        self.error_in_place = (e[0], " ".join(e[1:])) if e else None
        if e and (len(e) < 2 or e[0] not in self.error_name | self.error_string):
            raise SystemExit("%s: error_string_in_place %s: FUNCTION (an error_name or "
                             "error_string one) UNKNOWN" % (path, " ".join(e)))
        overlap = (self.zero_outputs | self.error_name | self.error_string |
                   set(self.fallback_values) | set(self.offline_version)) & self.custom_fallback
        if overlap:
            raise SystemExit("%s: %s: a generated fallback and a hand-written one"
                             % (path, ", ".join(sorted(overlap))))
        self.underscore_exports = self.values["underscore_exports"]
        self.library_sized = frozenset(self.values["library_sized"])
        self.what = " ".join(self.values.get("what", [self.family]))
        self.own_codes = [(r[0], int(r[1]), " ".join(r[2:])) for r in self.values.get("own_code", [])]
        self.same_function = self.values.get("same_function", [])
        self.inout = {(r[0], p) for r in self.values.get("inout", []) for p in r[1:]}
        self._read_layouts(path)
        if self.no_op:
            # nothing returns a code: the loader's table is zeros, and the
            # docs say "no-op" (codes_text)
            if self.unavailable:
                raise SystemExit("%s: result none: no call returns a code, so no 'unavailable'"
                                 % path)
            self.unavailable = {r: (0, "0") for r in self.UNAVAILABLE_REASONS}
        missing = [r for r in self.UNAVAILABLE_REASONS if r not in self.unavailable]
        if missing:
            raise SystemExit("%s: no 'unavailable' line for %s" % (path, ", ".join(missing)))

    def code_text(self, reason):
        """What a call that cannot forward for reason returns, for the
        docs: the number, or "no-op" for a library without a status type."""
        return "no-op" if self.no_op else str(self.unavailable[reason][0])

    def one_library(self):
        """Whether one SONAME serves every version (major 0: the driver,
        libnvToolsExt.so.1)."""
        return all(m == 0 for m, _ in self.sonames)

    POLICIES = ("given", "refuse", "drop", "padding")

    def _read_layouts(self, path):
        """self.layouts: struct -> LayoutSpec; self.layout_of: any name of
        such a struct (aliases too) -> its LayoutSpec."""
        self.layouts, self.layout_of = {}, {}
        for names in self.values.get("layout", []):
            ls = LayoutSpec(names[0], names[1:])
            self.layouts[ls.name] = ls
            for n in [ls.name] + ls.aliases:
                self.layout_of[n] = ls
        for words in self.values.get("layout_field", []):
            ls = self.layouts.get(words[0])
            if not ls or len(words) < 2:
                raise SystemExit("%s: layout_field %s: no such layout" % (path, " ".join(words)))
            field, rest = words[1], words[2:]
            if rest and rest[0] in self.POLICIES:
                if field == "*":
                    ls.default_policy = rest[0]
                else:
                    ls.policies[field] = rest[0]
                rest = rest[1:]
            if rest[:1] == ["query"] and len(rest) == 2 and field != "*":
                ls.queries[field] = rest[1]
            elif rest:
                raise SystemExit("%s: layout_field %s: what is %s?" % (path, " ".join(words), rest))
        for words in self.values.get("layout_query", []):
            if words[0] not in self.layouts or len(words) != 4:
                raise SystemExit("%s: layout_query %s" % (path, " ".join(words)))
            self.layouts[words[0]].query = tuple(words[1:])


def include_lines(headers, predefine):
    """The #include lines of headers, in order, each preceded by the
    #defines predefine gives it (Spec.predefine): the same lines for the
    parse and for the stub."""
    out = []
    for h in headers:
        out += ["#define %s" % m for m in predefine.get(h, ())]
        out.append("#include <%s>" % h)
    return out


class LayoutSpec:
    """What the spec says of one translated struct (see Spec: layout)."""

    def __init__(self, name, aliases):
        self.name, self.aliases = name, list(aliases)
        self.default_policy = "given"
        self.policies = {}  # field -> policy
        self.queries = {}  # field -> enumerator
        self.query = None  # (function, argument, enum)

    def policy(self, field):
        return self.policies.get(field, self.default_policy)
