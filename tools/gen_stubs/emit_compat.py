"""Writes docs/reference/compatibility.md: for every library, every stub ABI and every
recorded major the stub may load, how many exports forward, go through a
route or an adapter, or are gated, counted from the decisions routes.py
makes (the same ones the C rows and the gating tables are written from), and one table of the architectures the stubs are built
for."""

# What a library's "major" is, where the spec's words need more; any
# other library's is the CUDA major of the release it belongs to.
MAJOR_WORDS = {
    "nvrtc": "the NVRTC major loaded",
    "cudart": "the runtime major loaded",
    "cuda": "the CUDA major the loaded driver supports (driver 550: 12)",
    "nvtoolsext": ("the stub's own: `libnvToolsExt.so.1` has one ABI in every release "
                   "(11.8's and 12.4's are one file), so only the rows where the loaded major "
                   "is the stub's occur"),
}
# The libraries whose every cell the matrix suites test against the real
# library, export by export (tests/support/ts_matrix.c); the others have
# their contract suites (tests/libraries and their own folders).
MATRIX_SUITES = {"nvrtc": ("every cell", "nvrtc_matrix"),
                 "cudart": ("every cell", "cudart_matrix"),
                 "cuda": ("the 12.x cells (driver 550; no other driver here)",
                          "cuda_driver_matrix"),
                 "nvtoolsext": ("the cells where the loaded major is the stub's, with the "
                                "11.8 and 12.4 libraries,", "nvtoolsext_real")}
# Gated names a table row names, at most; the rest are counted.
NAMED = 4
# The order a row names gated exports in: a name the loaded major declares
# with another ABI first (the case a stub without gating would get wrong),
# then names a newer major dropped, then names an older one lacks.
GATED_ORDER = ("abi", "removed", "absent")
# The architectures the stubs are built for, and the forwarder each gets
# (stubs/loader/bind/forwarder.h; the shape tests hold every export to it).
ARCHITECTURES = [
    ("x86-64", "the native compiler", "`jmp *slot(%rip)`", 1,
     "real 11.8, 12.4 and 13.0 libraries, driver 550"),
    ("aarch64", "Debian's cross compiler (`cmake/toolchains/aarch64-linux-gnu.cmake`)",
     "`adrp x16` / `ldr x16` / `br x16`", 3,
     "NVIDIA's arm64 11.8 and 12.4 libraries and driver 550, under qemu-user "
     "(no arm64 13.0 library here)"),
]


def _base(name):
    for suffix in ("_ptsz", "_ptds"):
        if name.endswith(suffix):
            return name[:-len(suffix)]
    return name


class Counts:
    """What one stub ABI does on one loaded major."""

    def __init__(self, lib, build, cells, major):
        first = lib.decider.first[major]
        self.exports = len(cells)
        self.forward = self.later = self.other_name = self.translated = self.adapter = 0
        self.gated = {kind: [] for kind in GATED_ORDER}
        for name in sorted(cells):
            cell = cells[name][major]
            if cell.kind == "forward" and name in build.functions and name not in first.functions:
                self.later += 1  # a later minor's record declares it
            elif cell.kind == "forward":
                self.forward += 1
            elif cell.kind == "if_present":
                self.later += 1
            elif cell.kind == "route" and any(r.as_is for r in cell.routes):
                self.other_name += 1
            elif cell.kind == "route":
                self.translated += 1
            elif cell.kind == "adapter":
                self.adapter += 1
            else:
                self.gated[cell.kind].append(name)

    def gated_count(self):
        return sum(len(v) for v in self.gated.values())

    def gated_words(self, codes):
        """"53: 41 × 36, 12 × 801"."""
        by_code = {}
        for kind in GATED_ORDER:
            if self.gated[kind]:
                code = codes[kind]
                by_code[code] = by_code.get(code, 0) + len(self.gated[kind])
        if not by_code:
            return "0"
        return "%d: %s" % (self.gated_count(), ", ".join(
            "%d × %s" % (n, code) for code, n in sorted(by_code.items(), key=lambda x: -x[1])))

    def named(self, codes):
        """The first NAMED gated exports in GATED_ORDER, each with its code;
        a _ptsz/_ptds name only when its base name is not gated too."""
        names = []
        for kind in GATED_ORDER:
            gated = set(self.gated[kind])
            names += [(n, codes[kind]) for n in self.gated[kind]
                      if _base(n) == n or _base(n) not in gated]
        if not names:
            return ""
        shown = ", ".join("`%s` (%s)" % nc for nc in names[:NAMED])
        rest = self.gated_count() - min(NAMED, len(names))
        return shown + (", +%d more" % rest if rest > 0 else "")


def _codes(spec):
    """The code a gated export returns, by the kind of its cell."""
    return {"abi": spec.code_text("abi"), "removed": spec.code_text("removed"),
            "absent": spec.code_text("function")}


def _library_section(lib):
    spec = lib.spec
    # "runtime" -> "Runtime"; a name with capitals of its own stays (cuFFT)
    title = spec.what.capitalize() if spec.what.islower() else spec.what
    major_words = MAJOR_WORDS.get(spec.library,
                                  "the CUDA major of the release the loaded library belongs to")
    codes = _codes(spec)
    tested = ("%s tested against the real library, export by export (`%s`)"
              % MATRIX_SUITES[spec.library] if spec.library in MATRIX_SUITES else
              "proven by its contract suites on the real libraries")
    out = ["## %s (`%s`)" % (title, spec.family), "",
           ("Loaded: %s. Gated exports return %s (an older library lacks the function), "
            "%s (a newer one dropped it) or %s (the loaded major declares it with another "
            "ABI). %s." % (major_words, codes["absent"], codes["removed"], codes["abi"],
                           tested[0].upper() + tested[1:]) if not spec.no_op else
            "Loaded: %s. Gated exports, like every call without a library, do nothing and "
            "return what the library answers with no tool attached (the spec's fallback "
            "lines; [error codes](error-codes.md)). %s." % (major_words,
                                                       tested[0].upper() + tested[1:])), "",
           "| stub ABI | loaded | exports | forward | forward from a later minor | "
           "another name, as it is | translated | adapter | gated | gated, for example |",
           "| --- | --- | --: | --: | --: | --: | --: | --: | --- | --- |"]
    for abi, build in lib.served().items():
        cells = lib.cells(build)
        label = ("%d.%d" % (build.major, build.minor) if build.major == abi else
                 "%d (%d.%d's record)" % (abi, build.major, build.minor))
        for major in lib.decider.majors:
            c = Counts(lib, build, cells, major)
            out.append("| %s | %d.x | %d | %d | %d | %d | %d | %d | %s | %s |" % (
                label, major, c.exports, c.forward, c.later, c.other_name,
                c.translated, c.adapter, c.gated_words(codes), c.named(codes)))
    if spec.abi_across_releases:
        others = sorted({m for m, _ in spec.sonames if m} - set(lib.decider.majors), reverse=True)
        if others:
            out += ["", "Its ABI is its own, one for every CUDA major it is built for: a library "
                    "built for CUDA %s is loaded and called as the %s row says, each function "
                    "where that library exports it (the release it was built for is its own "
                    "answer)." % (" or ".join(str(m) for m in others),
                                  " and ".join("%d.x" % m for m in lib.decider.majors))]
    if len(lib.builds) > 1:
        out += ["", "Every function of each row: [functions/%s.md](functions/%s.md)."
                % (spec.library, spec.library)]
    return out + [""]


def _architectures(libs):
    exports = []
    for lib in libs:
        newest = max(lib.builds, key=lambda b: b.major)
        opaque = len(lib.opaque(newest))
        exports.append("%s %d%s" % (lib.spec.what, len(newest.functions) + opaque,
                                    " (%d no header declares)" % opaque if opaque else ""))
    out = ["## Architectures", "",
           "The gating above is decided from the headers and the libraries' export lists, "
           "which are the same on both architectures, so every row holds on each. "
           "Exports of the newest ABI, on each: %s. The exports no header declares are "
           "forwarded by the same assembly on both; a cross build exports exactly the native "
           "build's names, kinds and versions (`tests/cross`)." % ", ".join(exports),
           "",
           "| architecture | built with | forwarder after the first call | instructions it adds "
           "to a call | proven against |",
           "| --- | --- | --- | --: | --- |"]
    for arch, compiler, forwarder, insns, proven in ARCHITECTURES:
        out.append("| %s | %s | %s | %d | %s |" % (arch, compiler, forwarder, insns, proven))
    return out + [""]


# The libraries in the order the document takes them; any other after, by
# name.
ORDER = ("nvrtc", "cudart", "cuda")


def emit(libs, header_note):
    libs = sorted(libs, key=lambda lib: (ORDER.index(lib.spec.library)
                                         if lib.spec.library in ORDER else len(ORDER),
                                         lib.spec.library))
    out = ["# Compatibility", "", header_note, "",
           "One build makes a stub of each library for each CUDA ABI its records hold (11, 12 "
           "and 13); each exports its ABI and loads whichever major it finds. For each pair, what it does with its exports:",
           "",
           "- **forward**: the loaded library's own function, one jump away "
           "(`stubs/loader/bind/forwarder.h`);",
           "- **forward from a later minor**: a function a later minor of the loaded major "
           "added (12.5, 12.8); forwarded when the loaded library exports it, else gated as "
           "absent;",
           "- **another name, as it is** / **translated**: the loaded major's name for the same "
           "function, with the same ABI or with its structs copied field by field between the "
           "two majors' layouts (`stubs/cudart/layout/layout.c`);",
           "- **adapter**: a hand-written adapter for a prototype that changed "
           "(`stubs/cudart/adapt_*.c`), asked after the same function under another name "
           "where the loaded major has one (12.3+'s `_v2` of a 13 caller's name, 13's name "
           "of a 12 caller's `_v2`), which is taken as it is;",
           "- **gated**: never called in the library; the export returns the documented code "
           "([error codes](error-codes.md)).",
           "",
           "The matrix suites run each stub ABI of NVRTC, the runtime and the driver on each "
           "real library and check every export against its row "
           "(`tests/support/ts_matrix.c`).", ""]
    for lib in libs:
        out += _library_section(lib)
    out += _architectures(libs)
    return "\n".join(out)
