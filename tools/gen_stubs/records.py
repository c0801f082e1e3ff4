"""Reading the committed data: ABI records, export lists and stub specs."""

import os
import re

ABI_NAME = re.compile(r"^(?P<lib>[a-z_]+)-(?P<major>\d+)\.(?P<minor>\d+)\.abi$")


class Abi:
    """One major's ABI record file, as written by abi_extract."""

    def __init__(self, path):
        m = ABI_NAME.match(os.path.basename(path))
        self.major, self.minor = int(m["major"]), int(m["minor"])
        self.functions = {}
        self.structs = {}
        self.enums = []
        with open(path) as f:
            for line in f:
                if line.startswith("#"):
                    continue
                cols = line.rstrip("\n").split("\t")
                if cols[0] == "fn":
                    self.functions[cols[1]] = dict(ret=cols[2], abi=cols[3], decl=cols[4],
                                                   uses=[u for u in cols[5].split(",") if u])
                elif cols[0] == "struct":
                    self.structs[cols[1]] = [cols[2]]
                elif cols[0] == "field":
                    self.structs[cols[1]].append(tuple(cols[2:]))
                elif cols[0] == "enum":
                    self.enums.append((cols[2], int(cols[3])))

    def identity(self, name):
        """What must be equal for two majors to share name's ABI: the
        canonical prototype, and the size, offsets and field types of every
        struct it reaches. Field names are left out: a renamed field (a
        reserved one given a use) moves no byte."""
        fn = self.functions[name]
        return (fn["abi"], tuple((u, self.layout(u)) for u in fn["uses"]))

    def layout(self, struct):
        rec = self.structs.get(struct, ())
        return tuple(rec[:1]) + tuple((off, typ) for off, typ, _name in rec[1:])


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
    """specs/<lib>.notes: `NAME<TAB>why it is left unadapted`, one a line;
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
      ptds yes|no             also declare the per-thread-stream variants
      variant DEFINE...       parse again with -DDEFINE, adding new names
      context HEADER...       include these first, recording nothing of them
      adapter NAME...         a hand-written adapter may stand in when the
                              loaded major's ABI differs (see emit_c.py)
      adapter_first NAME...   the adapter is asked first, even when the ABI
                              is the same (it returns NULL to forward)
      result TYPE             the error enum the functions return
      handwritten NAME ...    exported wrapper written by hand
      custom_fallback NAME... fallback written by hand (probe outputs, strings)
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
      unavailable REASON NUMBER CONSTANT
                              what a call returns when it cannot forward, for
                              each REASON of UNAVAILABLE_REASONS: the number
                              (for the tables) and the C constant (checked
                              against the number at compile time)
    """

    UNAVAILABLE_REASONS = ("library", "function", "abi", "removed")

    def __init__(self, path):
        self.values = {"handwritten": [], "custom_fallback": [], "later_minors": ["no"],
                       "adapter": [], "adapter_first": [], "header": [], "variant": [], "context": []}
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
                    elif key in ("handwritten", "custom_fallback", "adapter", "adapter_first",
                                 "header", "variant", "context"):
                        self.values[key] += rest
                    else:
                        self.values[key] = rest
        self.library = self.values["library"][0]
        self.headers = self.values["header"]
        self.header = self.headers[0]
        # folders of the repository to parse with, before the CUDA headers
        self.includes = self.values.get("include", [])
        self.variants = self.values.get("variant", [])
        if self.values.get("ptds", ["no"])[0] == "yes":
            self.variants = ["CUDA_API_PER_THREAD_DEFAULT_STREAM=1"] + self.variants
        # included first, for types the headers name but do not include
        self.context = self.values.get("context", [])
        self.adapter_first = set(self.values.get("adapter_first", []))
        self.adapters = set(self.values.get("adapter", [])) | self.adapter_first
        self.result = self.values["result"][0]
        self.handwritten = set(self.values["handwritten"])
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
        if any(m for m, _ in self.sonames) and 0 in (m for m, _ in self.sonames):
            raise SystemExit("%s: major 0 (any version) goes alone" % path)
        missing = [r for r in self.UNAVAILABLE_REASONS if r not in self.unavailable]
        if missing:
            raise SystemExit("%s: no 'unavailable' line for %s" % (path, ", ".join(missing)))
