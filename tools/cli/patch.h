/*
 * `cudastub patch`: point built ELF files at the stubs instead of NVIDIA's
 * libraries. Its parts, each calling only those below it:
 *
 *   patch.c          the command: each path given, the summary, the exit
 *   patch_wheel.c    a .whl: unpacked, patched, packed, put back
 *   patch_unpacked.c a folder that is an unpacked wheel
 *   patch_tree.c     a folder walked: its files, links and leftovers
 *   patch_file.c     one file: opened, locked, planned, patched, reported
 *   patch_hardlinks.c a file with several names, refused with its names
 *   patch_check.c    --check: a patched file finds its stubs and versions
 *   patch_apply.c    a plan carried out in a private folder, then renamed
 *   patch_plan.c     what one file needs done
 *   patch_stubs.c    the stubs this command copies in, and their copies
 *   patch_cover.c    the CUDA ABI a file needs, and which stub stands in
 *                    for which library
 *   patch_identity.c owner, group, mode and attributes of a replacement
 *   patch_names.c    the names stubs go by
 *   patch_runpath.c  where a RUNPATH leads
 *   patch_links.c    paths given, and the symbolic links a walk meets
 *   patch_args.c     the command line
 *   patchelf.c       what is asked of patchelf
 *   nvidia_names.c   NVIDIA's library names, auditwheel's hashed ones
 * and below them the descriptor layer (patch_fs.h) and the ELF reader
 * (elf_read.h). Each part declares what it defines in a header of its own
 * name (patch_plan.h for patch_plan.c), so that a part's header is
 * included only by the parts above it; what they all pass around, the
 * run's options and the file at hand, is in patch_types.h.
 */
#ifndef CUDASTUB_CLI_PATCH_H
#define CUDASTUB_CLI_PATCH_H

/* The patch command; argv[0] is "patch". Returns the exit status. */
int cli_patch(int argc, char **argv);

#endif
