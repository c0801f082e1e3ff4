"""What must know every library at once, written from all the specs
(gen_stubs.py libraries): the loader's list of release SONAMEs and stub
markers, the public header's library numbers and unified API, the
command's table, and CMake's list of libraries."""


def fnv1a(name):
    """FNV-1a, 32 bits: loader_loaded.c's hash of an object's names."""
    h = 2166136261
    for c in name.encode():
        h = ((h ^ c) * 16777619) & 0xFFFFFFFF
    return h


def gnu_hash(name):
    """The ELF GNU hash: loader_symtab.c's lookup of a stub marker."""
    h = 5381
    for c in name.encode():
        h = (h * 33 + c) & 0xFFFFFFFF
    return h


def loader_c(specs, header):
    release = []
    for spec in specs:
        for major, name in spec.sonames:
            majors = {m for m, n in spec.sonames if n == name}
            if major and majors == {major}:
                release.append((major, name))
    release.sort(key=lambda mn: (-mn[0], mn[1]))
    out = [header, "", '#include "loader.h"', "",
           "/* SONAMEs that belong to one CUDA major, newest first */",
           "const struct cudastub_soname cudastub_release_sonames[] = {"]
    out += ['\t{%d, "%s"},' % mn for mn in release]
    out += ["\t{0, NULL},", "};", "",
            "/* their FNV-1a hashes, in that order (loader_loaded.c) */",
            "const uint32_t cudastub_release_soname_hashes[] = {"]
    out += ["\t0x%08xu, /* %s */" % (fnv1a(name), name) for _m, name in release]
    out += ["};", "",
            "/* what every stub exports, and NVIDIA's libraries never do */",
            "const char *const cudastub_stub_markers[] = {"]
    markers = ["cudastub_%s_info" % s.library for s in specs]
    out += ['\t"%s",' % m for m in markers]
    out += ["\tNULL,", "};", "",
            "/* their GNU hashes, in that order (loader_symtab.c) */",
            "const uint32_t cudastub_stub_marker_hashes[] = {"]
    out += ["\t0x%08xu, /* %s */" % (gnu_hash(m), m) for m in markers]
    out += ["};", ""]
    return "\n".join(out)


def public_h(specs, header):
    guard = "CUDASTUB_GENERATED_LIBRARIES_H"
    out = [header, "#ifndef %s" % guard, "#define %s" % guard, "",
           "/* Every library a stub stands in for; a number is never reused. */",
           "typedef enum cudastub_lib {"]
    out += ["\tCUDASTUB_LIB_%s = %d, /* %s */" % (s.library.upper(), s.id, s.family) for s in specs]
    out += ["\t/* one past the largest: a number below it that no library has (one",
            "\t * retired) is a hole, which every API answers as a stub not linked */",
            "\tCUDASTUB_LIB_COUNT = %d" % (max(s.id for s in specs) + 1), "} cudastub_lib;", "",
            "/* Each stub's entry points (cudastub_<lib>_info, cudastub_<lib>_load). */"]
    out += ["CUDASTUB_DECLARE_ENTRY_POINTS(%s)" % s.library for s in specs]
    own = [(s, c) for s in specs for c in s.own_codes]
    if own:
        out += ["", "/* Codes of the stubs' own, where a library's result enum has none that",
                " * fits (README.md, \"Error codes\"): 1000 plus the driver's code for the",
                " * same condition. The library's error-string function explains them. */"]
        out += ["#define %s %d /* %s */" % (name, number, text) for _s, (name, number, text) in own]
    out += ["", "/*", " * One API over whichever stubs are linked. The weak references resolve to",
            " * NULL for a stub the program does not link, so including this header",
            " * never adds a link-time dependency.", " */",
            "#if defined(__GNUC__) && !defined(CUDASTUB_NO_UNIFIED_API)"]
    for s in specs:
        out += ["#pragma weak cudastub_%s_info" % s.library, "#pragma weak cudastub_%s_load" % s.library]
    for what, ret, fallback in (("info", "const cudastub_library_info *", "0"),
                                ("load", "cudastub_state ", "CUDASTUB_STATE_NOT_LINKED")):
        doc = ("/* NULL when the program does not link that stub. */" if what == "info" else
               "/* Runs that stub's search now; CUDASTUB_STATE_NOT_LINKED without it. */")
        out += ["", doc, "static inline %scudastub_%s(cudastub_lib lib)" % (ret, what), "{",
                "\t%s(*%s)(void) = 0;" % (ret, what), "", "\tswitch (lib) {"]
        out += ["\tcase CUDASTUB_LIB_%s: %s = cudastub_%s_%s; break;" % (s.library.upper(), what,
                                                                        s.library, what)
                for s in specs]
        out += ["\tcase CUDASTUB_LIB_COUNT: break;", "\t}",
                "\treturn %s ? %s() : %s;" % (what, what, fallback), "}"]
    out += ["#endif", "", "#endif", ""]
    return "\n".join(out)


def stub_file(library, major, tag):
    """A stub's file name, which is its SONAME."""
    return "lib%s_stub_cu%d-%s.so" % (library, major, tag)


def cli_c(specs, header, tags, combined):
    """The command's table of libraries; tags: {library: {major: tag}} of
    the stubs this build makes, combined: {major: tag} of libcudastub's."""
    out = [header, "", '#include "cli.h"', "",
           "/* In cudastub_lib order: name, what it is, override variable, whether the stub",
           " * keeps to the process's CUDA release (stubs/loader/search/loader_release.c), the",
           " * real library's SONAMEs by CUDA major (0: every major), and the file of",
           " * its stub for each CUDA ABI this build makes, newest first, and its shim's",
           " * folder below cu<N>/. A number no library has is a hole: all zero, its",
           " * name NULL. */",
           "const struct cli_known_library cli_known_libraries[CUDASTUB_LIB_COUNT] = {"]
    for s in specs:
        sonames = ", ".join('{%d, "%s"}' % mn for mn in s.sonames)
        stubs = "".join('{%d, "%s"}, ' % (m, stub_file(s.library, m, t))
                        for m, t in sorted(tags.get(s.library, {}).items(), reverse=True))
        out += ['\t[CUDASTUB_LIB_%s] = {"%s", "%s", "%s", %d,' % (
                    s.library.upper(), s.library, s.what, s.env_path, int(s.release_preference)),
                "\t\t(const struct cli_soname[]){%s, {0, NULL}}," % sonames,
                "\t\t(const struct cli_soname[]){%s{0, NULL}}, \"%s\"}," % (
                    stubs, s.shim_dir[len("shim/"):] if s.shim_dir.startswith("shim/") else "")]
    out += ["};", "", "/* libcudastub_cu<major>: every stub of an ABI in one file */",
            "const struct cli_soname cli_combined_files[] = {"]
    out += ['\t{%d, "libcudastub_cu%d-%s.so"},' % (m, m, t)
            for m, t in sorted(combined.items(), reverse=True)]
    out += ["\t{0, NULL},", "};", ""]
    return "\n".join(out)


def cmake(specs, header, majors):
    """What the build reads of every library (generated/cmake/libraries.cmake);
    majors: every CUDA major the records hold."""
    out = [header, "", "# every library, in cudastub_lib order",
           "set(cudastub_libraries %s)" % " ".join(s.library for s in specs), "",
           "# every CUDA ABI the records hold, oldest first: what a build makes",
           "set(cudastub_recorded_abis %s)" % " ".join(str(m) for m in sorted(majors))]
    for s in specs:
        out += ["", "# %s" % s.family,
                "set(cudastub_%s_folder %s)" % (s.library, s.folder),
                "set(cudastub_%s_alias %s)" % (s.library, s.alias),
                "set(cudastub_%s_toolkit_targets %s)" % (s.library, " ".join(s.toolkit_targets)),
                "set(cudastub_%s_shim_dir %s)" % (s.library, s.shim_dir),
                "set(cudastub_%s_what \"%s\")" % (s.library, s.what),
                "set(cudastub_%s_version_node %s)" % (s.library, "ON" if s.version_node else "OFF"),
                # generated only: no hand-written C, built from generated/ alone
                "set(cudastub_%s_generated_only %s)" % (s.library, "ON" if s.version_query else "OFF"),
                "set(cudastub_%s_env %s)" % (s.library, s.env_path[:-len("_PATH")]),
                "set(cudastub_%s_no_library_code %d)" % (s.library, s.unavailable["library"][0]),
                "set(cudastub_%s_version_query %s)" % (s.library, " ".join(
                    (s.version_query or ()) + ((s.version_library,) if s.version_library else ()))),
                "set(cudastub_%s_releases %s)" % (s.library, " ".join(
                    "%d:%s" % (m, ".".join(str(v) for v in first)) for m, first in s.releases))]
        out += ["set(cudastub_%s_soname_%s %s)" % (s.library, major or "any", name)
                for major, name in s.sonames]
    return "\n".join(out) + "\n"


def codes_md(specs, header):
    """README's table of what each stub returns when it cannot forward, one
    row a library, from each spec's unavailable lines (the same lines the
    wrappers' fallbacks and their compile-time checks are written from)."""
    def sonames(spec):
        if all(m == 0 for m, _ in spec.sonames):
            return "`%s` (every major)" % spec.sonames[0][1]
        return ", ".join("%d: `%s`" % mn for mn in spec.sonames)

    def code(spec, reason):
        number, constant = spec.unavailable[reason]
        return "`%s` (%d)" % (constant, number)

    out = ["<!-- %s -->" % header[3:-3], "",
           "| stub | real library by CUDA major | no library could be loaded "
           "| the loaded library is older and lacks the function "
           "| the loaded library is newer and dropped it "
           "| the loaded major has a different ABI, and no adapter translates |",
           "| --- | --- | --- | --- | --- | --- |"]
    for spec in specs:
        if spec.no_op:
            # no status type: every reason alike (spec: result none, fallback)
            out.append("| %s (`lib%s_stub_cu<N>.so`) | %s | %s |" % (
                spec.what, spec.library, sonames(spec),
                " | ".join(["a no-op: what the library answers with no tool attached "
                            "(%s)" % _fallbacks(spec)] + ["the same no-op"] * 3)))
            continue
        out.append("| %s (`lib%s_stub_cu<N>.so`) | %s | %s |" % (
            spec.what, spec.library, sonames(spec),
            " | ".join(code(spec, r) for r in ("library", "function", "removed", "abi"))))
    answers = [s for s in specs if s.offline_version]
    if answers:
        out += ["", "Without a library, these version queries answer, with success, the "
                "version of the release the stub's record was made from, as that library "
                "answers on a machine without a GPU (frameworks check them: a version of 0 "
                "reads as a broken install); every call that needs the library still returns "
                "the code above:", ""]
        out += ["- %s: %s" % (s.what, ", ".join("`%s`" % n for n in sorted(s.offline_version)))
                for s in answers]
    return "\n".join(out) + "\n"


def _fallbacks(spec):
    """A no-op library's answers, by value: "`V`: f, g; else 0, NULL or nothing"."""
    by_value = {}
    for name, value in sorted(spec.fallback_values.items()):
        by_value.setdefault(value, []).append("`%s`" % name)
    said = ["`%s` from %s" % (v, ", ".join(n)) for v, n in sorted(by_value.items())]
    return "; ".join(said + ["else 0, NULL or nothing, by return type"])
