"""python -m cudastub: the folders a build needs, or the cudastub command.

    python -m cudastub --cmakedir | --adopt | --stubdir | --prefix | --includedir | --pkgconfigdir
    python -m cudastub info [...]     (and every other cudastub command)
"""

import os
import sys

from . import adopt_file, cmake_dir, command, include_dir, pkgconfig_dir, prefix, stub_dir

FOLDERS = {
    "--cmakedir": cmake_dir,
    "--adopt": adopt_file,
    "--stubdir": stub_dir,
    "--prefix": prefix,
    "--includedir": include_dir,
    "--pkgconfigdir": pkgconfig_dir,
}


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    if len(args) == 1 and args[0] in FOLDERS:
        print(FOLDERS[args[0]]())
        return 0
    if any(a in FOLDERS for a in args):
        print("cudastub: " + ", ".join(sorted(FOLDERS)) + " stand alone", file=sys.stderr)
        return 2
    if not os.access(command(), os.X_OK):
        print("cudastub: the command is missing from this installation: " + command(),
              file=sys.stderr)
        return 2
    sys.stdout.flush()
    # the command itself, in this process: its exit status is the answer
    os.execv(command(), [command()] + args)
    return 2  # not reached


if __name__ == "__main__":
    sys.exit(main())
