#!/usr/bin/python3
"""Copies generated tables into README.md, between the lines

  <!-- BEGIN generated from PATH -->
  <!-- END generated -->

so that the README shows exactly what the code does. PATH is relative to
the tree given as --tree (where the generated files are).

  readme_blocks.py --readme README.md --tree DIR [--output FILE]
"""

import argparse
import re

BLOCK = re.compile(r"(<!-- BEGIN generated from (\S+) -->\n)(.*?)(<!-- END generated -->)", re.S)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--readme", required=True)
    p.add_argument("--tree", required=True)
    p.add_argument("--output")
    args = p.parse_args()
    with open(args.readme) as f:
        text = f.read()

    def fill(m):
        with open("%s/%s" % (args.tree, m.group(2))) as g:
            return m.group(1) + g.read() + m.group(4)

    with open(args.output or args.readme, "w") as f:
        f.write(BLOCK.sub(fill, text))


if __name__ == "__main__":
    main()
