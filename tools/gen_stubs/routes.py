"""Where a function goes on a major whose ABI for its name differs: the
decision of what the stub does with each exported function on each major,
made here once, for the C rows, the TSV table and the README's table alike.

For each function F of the stub's build record B and each recorded major R:

  forward      R declares F as B does (and exports it, when we have R's
               list): the loader forwards F itself;
  if_present   `later_minors yes`, R's record lacks F and a newer major
               declares it as B does: forwarded if R's library exports it;
  adapter      a hand-written adapter stands in (spec: adapter), after
               the function's as-is routes on that major, if any (below);
  route        F is called under one of its names in R (spec:
               same_function, F's own name included), either as it is (the
               same ABI under another name: cudaThreadExit is 13's
               cudaDeviceReset) or with its struct parameters translated
               between the two majors' layouts (spec: layout). Routes are
               tried in order at run time, the first one R exports wins;
  abi          R declares F with another ABI and nothing stands in;
  absent       R's records lack F (an older major);
  removed      R's records lack F (a newer major).

Gating (which majors a wrapper may forward to) is derived from the records
of every major, for each function F of the build major B (a library whose
ABI is its own, `abi_across_releases yes`, also forwards F on every CUDA
major its soname lines name and no record speaks for):
  forward    majors with a record whose header declares F with B's
             prototype and struct layouts (but those the spec calls
             library_sized), and whose library exports F
             (when we have that minor's list): a later minor's record lets
             F forward on a runtime of that minor or newer (an older one
             lacks it: "not found");
  abi        majors whose header declares F differently: never called
             under that name;
  if_present with `later_minors yes` only: majors whose header lacks F
             while a newer major declares it as B does, unless the recorded
             minor is that major's last (11.8). A later minor of that major
             may add it (NVRTC 12.8 added nvrtcGetPCH*), so the stub
             forwards if the library exports it, and returns "not found"
             otherwise.
A major may have several records (12.4 and 12.5): its oldest is the one
its stubs are built from (the headers they are compiled with). A later
minor's record speaks only for the functions that oldest one lacks: what
the minor added. (Within a major NVIDIA keeps what it published; a later
header may still spell a struct differently, a union grown into its own
padding, which must not turn a major against itself.)
"""

import re

# Majors that will see no further minor: nothing can appear in them later.
FINAL_MINOR = {11: 8}


class Route:
    """F called as `name` on `major`: as it is, or with params translated.
    translated: [(index, family, build column, runtime column, direction)]
    with direction "give" (the runtime reads it), "report" (writes it) or
    "inout"."""

    def __init__(self, major, name, translated):
        self.major, self.name, self.translated = major, name, translated
        self.as_is = not translated


class Cell:
    def __init__(self, kind, routes=()):
        self.kind, self.routes = kind, list(routes)


def build_records(abis):
    """The record each major's stubs are built from: its oldest minor."""
    oldest = {}
    for a in abis:
        if a.major not in oldest or a.minor < oldest[a.major].minor:
            oldest[a.major] = a
    return [oldest[m] for m in sorted(oldest)]


class Decider:
    def __init__(self, spec, abis, exports, families):
        self.spec, self.abis, self.exports, self.families = spec, abis, exports, families
        self.builds = build_records(abis)
        self.first = {a.major: a for a in self.builds}
        self.majors = [a.major for a in self.builds]
        # every name a major's libraries export (all minors' lists together)
        self.exported = {}
        for (major, _minor), names in exports.items():
            self.exported.setdefault(major, set()).update(names)
        unknown = spec.library_sized - {s for a in abis for s in a.structs}
        if unknown:
            raise SystemExit("library_sized %s: no record has such a struct"
                             % " ".join(sorted(unknown)))
        self.groups = {}
        for group in spec.same_function:
            for suffix in ("", "_ptsz", "_ptds"):
                names = [n + suffix for n in group]
                for n in names:
                    self.groups[n] = names

    def masks(self, build, name):
        """(forward, if_present, other_abi): sets of majors (see above)."""
        unsized = self.spec.library_sized
        want = build.identity(name, unsized)
        same, later, other = set(), set(), set()
        for abi in self.abis:
            exported = self.exports.get((abi.major, abi.minor))
            if abi is not self.first[abi.major] and name in self.first[abi.major].functions:
                continue  # a later minor: only what the major's first record lacks
            if name in abi.functions:
                if abi.identity(name, unsized) != want:
                    other.add(abi.major)
                elif exported is None or name in exported:
                    same.add(abi.major)
        for major in set(self.majors) - same - other:
            declared = any(name in a.functions for a in self.abis if a.major == major)
            if (self.spec.later_minors and not declared and major not in FINAL_MINOR and
                    any(n.major > major and name in n.functions and
                        n.identity(name, unsized) == want
                        for n in self.abis)):
                later.add(major)
        if self.spec.abi_across_releases:
            # the library's ABI is its own major's (cuDNN 9, NCCL 2): a CUDA
            # major with no record of its own takes the build record's word,
            # and the loaded library's exports decide at run time
            same |= {m for m, _ in self.spec.sonames if m and m not in self.majors}
        return same - other, later, other

    def cells(self, build, name):
        """{major: Cell} for every recorded major."""
        same, later, other = self.masks(build, name)
        out = {}
        for major in self.majors:
            if major in same:
                out[major] = Cell("forward")
            elif major in later:
                out[major] = Cell("if_present")
            elif name in self.spec.adapters:
                # the same function under another name, where the major
                # has one (12.3+'s _v2 for 13's plain name), is taken as it
                # is before the adapter is asked: the adapter only translates
                out[major] = Cell("adapter", [r for r in self.routes(build, name, major)
                                              if r.as_is])
            else:
                routes = self.routes(build, name, major)
                if routes:
                    out[major] = Cell("route", routes)
                elif major in other:
                    out[major] = Cell("abi")
                elif major > build.major:
                    out[major] = Cell("removed")
                else:
                    out[major] = Cell("absent")
        return out

    def routes(self, build, name, major):
        """The names F may be called under on major, in the order tried."""
        fn = build.functions[name]
        found = []
        for candidate in self.groups.get(name, [name]):
            rec = next((a for a in self.abis if a.major == major and candidate in a.functions), None)
            if rec is None:
                continue
            if major in self.exported and candidate not in self.exported[major]:
                continue
            translated = self.translation(build, fn, rec, rec.functions[candidate])
            if translated is not None:
                found.append(Route(major, candidate, translated))
        # as it is first, then the fewest structs to translate (11's
        # cudaCreateTextureObject_v2 before its 68-byte plain form)
        return sorted(found, key=lambda r: len(r.translated))

    def translation(self, build, fn, rec, theirs):
        """None when fn cannot be called as theirs; else the parameters to
        translate (an empty list: as it is)."""
        ret = lambda f: f.abi[:f.abi.index("(")].strip()
        if ret(fn) != ret(theirs) or len(fn.params) != len(theirs.params):
            return None
        out = []
        for i, (mine, other) in enumerate(zip(fn.params, theirs.params)):
            fam = self.families.of_param(mine.canonical) if self.families else None
            if fam and self.families.of_param(other.canonical) == fam:
                family, const = fam
                col_b = family.column(build, _key(build, mine.canonical))
                col_r = family.column(rec if rec in self.builds else self.first[rec.major],
                                      _key(rec, other.canonical))
                if col_b is None or col_r is None:
                    return None
                if self.families.same_shape(col_b, col_r):
                    continue
                if (fn.name, mine.name) in self.spec.inout:
                    direction = "inout"
                else:
                    direction = "give" if const else "report"
                out.append((i, family, col_b, col_r, direction))
            elif mine.canonical != other.canonical or \
                    _reached(build, mine.canonical, self.spec.library_sized) != \
                    _reached(rec, other.canonical, self.spec.library_sized):
                return None
        return out


def _key(abi, canonical):
    tag = re.match(r"^(?:const\s+)?(?:struct|union)\s+(\w+)", canonical).group(1)
    for kind in ("struct", "union"):
        if "%s %s" % (kind, tag) in abi.structs:
            return "%s %s" % (kind, tag)
    return None


def _reached(abi, canonical, unsized=()):
    """The layouts of every struct a parameter's type reaches by pointer or
    value: what must also agree for it to pass as it is. A struct is named
    "struct TAG" (or "union TAG"), or, when it has no tag, by its typedef
    (cublasLtMatmulAlgo_t), as the records name it. A struct in unsized
    (Spec.library_sized) is not followed."""
    out, todo = {}, [canonical]
    while todo:
        typ = todo.pop()
        for m in re.finditer(r"\b(struct|union)\s+([\w:]+(?:\s*\([^)]*\))?)|\b([A-Za-z_]\w*)", typ):
            key = m.group(3) or "%s %s" % (m.group(1), m.group(2))
            if key in out or key not in abi.structs or key in unsized:
                continue
            out[key] = abi.layout(key)
            todo += [f[2] for f in abi.structs[key][1:]]
    return out
