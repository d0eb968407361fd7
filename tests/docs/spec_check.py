#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks the netlink spec of cacheprobe against the code it describes.

  spec_check.py header REAL.h GENERATED.h CC
      every enum (name, members in order) and every CACHEPROBE_* constant
      of the real uAPI header has the same value in the header that the
      kernel's ynl-gen-c.py rendered from the spec, and the other way round
      (the ioctl numbers CACHEPROBE_IOC_* are not netlink and are left out).
      Values come from compiling both headers, not from reading text.
  spec_check.py types SPEC.yaml REAL.h GENL.c
      every attribute's type agrees with the header's kernel-doc ("u32",
      "binary", ...) and, for request attributes, with the module's netlink
      policy; every operation's request attributes are exactly those of
      its policy.
  spec_check.py drop-attr SPEC.yaml NAME
      prints the spec without the top-level attribute NAME (the test shows
      with it that a mismatch is caught).

Prints one "PASS name" or "FAIL name: why" line per check; exits 1 on any
failure.
"""
import os
import re
import subprocess
import sys
import tempfile

import yaml

IOCTL_PREFIX = "CACHEPROBE_IOC_"


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def enums_of(text):
    """[(enum name or '', [member, ...])] in the order of the header."""
    found = []
    for m in re.finditer(r"\benum\s*(\w*)\s*\{(.*?)\}", strip_comments(text),
                         re.S):
        members = []
        for item in m.group(2).split(","):
            item = item.strip()
            if item:
                members.append(re.match(r"\w+", item).group(0))
        found.append((m.group(1), members))
    return found


def object_macros_of(text):
    names = re.findall(r"^#define\s+(CACHEPROBE_\w+)(?![\w(])", text, re.M)
    return [n for n in names if not n.startswith(IOCTL_PREFIX)]


def values_of(header, names, cc):
    """Compiles a program printing every name's value from the header."""
    lines = ["#include <stdio.h>",
             f'#include "{os.path.abspath(header)}"',
             "static void show_int(const char *n, long long v)",
             '{ printf("%s %lld\\n", n, v); }',
             "static void show_str(const char *n, const char *v)",
             '{ printf("%s \\"%s\\"\\n", n, v); }',
             "#define SHOW(x) _Generic((x), char *: show_str, "
             "const char *: show_str, default: show_int)(#x, x)",
             "int main(void)", "{"]
    lines += [f"\tSHOW({n});" for n in names]
    lines += ["\treturn 0;", "}"]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "values.c")
        exe = os.path.join(tmp, "values")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        subprocess.run([cc, "-std=c11", "-Wall", "-Werror", "-o", exe, src],
                       check=True)
        out = subprocess.run([exe], check=True, capture_output=True,
                             text=True).stdout
    return dict(line.split(" ", 1) for line in out.splitlines())


def describe(text):
    enums = enums_of(text)
    names = [m for _, members in enums for m in members]
    names += object_macros_of(text)
    named = {name: members for name, members in enums if name}
    return named, names


def check_header(real, generated, cc):
    failures = []
    real_text = open(real).read()
    gen_text = open(generated).read()
    real_enums, real_names = describe(real_text)
    gen_enums, gen_names = describe(gen_text)
    for name in sorted(set(real_enums) | set(gen_enums)):
        a, b = real_enums.get(name), gen_enums.get(name)
        if a != b:
            failures.append(f"enum {name}: header {a}, spec {b}")
    real_values = values_of(real, real_names, cc)
    gen_values = values_of(generated, gen_names, cc)
    for name in sorted(set(real_values) | set(gen_values)):
        a, b = real_values.get(name), gen_values.get(name)
        if a != b:
            failures.append(f"{name}: header {a}, spec {b}")
    report("netlink-spec-matches-header", failures,
           f"{len(real_values)} names, {len(real_enums)} enums")
    return not failures


def kernel_doc(text):
    """{'CACHEPROBE_ATTR_X': 'its description'} from the kernel-doc."""
    docs = {}
    for block in re.findall(r"/\*\*(.*?)\*/", text, re.S):
        body = re.sub(r"^\s*\* ?", "", block, flags=re.M)
        for m in re.finditer(r"@(\w+):(.*?)(?=\n@|\Z)", body, re.S):
            docs[m.group(1)] = " ".join(m.group(2).split())
    return docs


DOC_WORD = {"u32": "u32", "u64": "u64", "string": "string",
            "binary": "binary", "nest": "nested", "pad": "padding",
            "unused": "never valid"}
POLICY_TYPE = {"NLA_U32": "u32", "NLA_U64": "u64", "NLA_BINARY": "binary",
               "NLA_NUL_STRING": "string", "NLA_NESTED": "nest"}


def c_upper(name):
    return name.upper().replace("-", "_")


def policies(genl_text):
    """{'flush': {'CACHEPROBE_ATTR_X': 'u32', ...}} from the module."""
    text = genl_text.replace("\\\n", "\n")
    macros = {}
    for m in re.finditer(r"#define\s+(\w+)\s*\n(.*?)(?:\n\n)", text, re.S):
        macros[m.group(1)] = m.group(2)
    found = {}
    for m in re.finditer(
            r"nla_policy\s+cp_(\w+)_policy\[[^]]*\]\s*=\s*\{(.*?)\n\};",
            text, re.S):
        body = m.group(2)
        for name, expansion in macros.items():
            body = body.replace(name, expansion)
        found[m.group(1)] = {
            a: POLICY_TYPE.get(t, t) for a, t in re.findall(
                r"\[(CACHEPROBE_ATTR_\w+)\]\s*=\s*\{\s*\.type\s*=\s*(NLA_\w+)",
                body)}
    return found


def check_types(spec_path, real, genl):
    spec = yaml.safe_load(open(spec_path))
    docs = kernel_doc(open(real).read())
    module = policies(open(genl).read())
    failures = []
    attr_type = {}
    for aset in spec["attribute-sets"]:
        for attr in aset["attributes"]:
            c_name = c_upper(aset["name-prefix"] + attr["name"])
            attr_type[(aset["name"], attr["name"])] = (c_name, attr["type"])
            doc = docs.get(c_name)
            word = DOC_WORD[attr["type"]]
            if doc is None:
                failures.append(f"{c_name}: no kernel-doc in the header")
            elif word not in doc:
                failures.append(f"{c_name}: spec type {attr['type']}, "
                                f"header doc does not say '{word}'")
            enum = attr.get("enum", "").replace("-", "_")
            if enum and doc is not None and f"cacheprobe_{enum}" not in doc \
                    and f"CACHEPROBE_{enum.upper()}_" not in doc:
                failures.append(f"{c_name}: header doc names neither enum "
                                f"cacheprobe_{enum} nor CACHEPROBE_"
                                f"{enum.upper()}_*")
    for op in spec["operations"]["list"]:
        request = op.get("do", {}).get("request", {}).get("attributes", [])
        if op["name"] == "unspec":
            continue
        policy = module.get(op["name"].replace("-", "_"), {})
        spec_req = {attr_type[(op["attribute-set"], a)][0]:
                    attr_type[(op["attribute-set"], a)][1] for a in request}
        if spec_req != policy:
            failures.append(f"{op['name']}: spec request {spec_req}, "
                            f"module policy {policy}")
    report("netlink-spec-types", failures,
           f"{len(attr_type)} attributes, {len(module)} policies")
    return not failures


def report(name, failures, summary):
    if failures:
        print(f"FAIL {name}: " + "; ".join(failures))
    else:
        print(f"PASS {name} ({summary})")


def drop_attr(spec_path, name):
    """Prints the spec without one top-level attribute, for the self-test."""
    spec = yaml.safe_load(open(spec_path))
    attrs = spec["attribute-sets"][0]["attributes"]
    attrs[:] = [a for a in attrs if a["name"] != name]
    for op in spec["operations"]["list"]:
        for part in op.get("do", {}).values():
            part["attributes"] = [a for a in part["attributes"] if a != name]
    print("# SPDX-License-Identifier: "
          "((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)")
    yaml.safe_dump(spec, sys.stdout)
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "drop-attr":
        return drop_attr(argv[2], argv[3])
    if len(argv) == 5 and argv[1] == "header":
        return 0 if check_header(argv[2], argv[3], argv[4]) else 1
    if len(argv) == 5 and argv[1] == "types":
        return 0 if check_types(argv[2], argv[3], argv[4]) else 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
