#!/usr/bin/env python3
"""Checks the shape of the sources (ctest `structure`):

- no file in src/ longer than 800 lines;
- no function longer than 160 lines, except the VM's dispatch loop;
- #include "layer/..." only of the same layer or one below it, in the order
  common, os, pager, btree, record, catalog, parser, planner, exec, func,
  main, api, ext, shell.

Function bodies are found by a heuristic over braces, not a parser: a body
is a '{' opened at namespace level after a ')'.
Usage: structure.py SOURCE_DIR          (the check)
       structure.py --list N FILE...    (functions longer than N lines)
"""
import re
import sys


def strip(text):
    # Removes comments, string and character literals, keeping newlines.
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append('\n' * text.count('\n', i, j))
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(')' + m.group(1) + '"', i)
            out.append('""' + '\n' * text.count('\n', i, end))
            i = end + len(m.group(1)) + 2
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def drop_directives(text):
    # Blanks preprocessor lines (with their continuations), keeping newlines.
    out = []
    continued = False
    for line in text.split('\n'):
        directive = continued or line.lstrip().startswith('#')
        continued = directive and line.endswith('\\')
        out.append('' if directive else line)
    return '\n'.join(out)


def functions(path):
    text = drop_directives(strip(open(path, encoding='utf-8', errors='replace').read()))
    stack = []  # kinds of open braces: 'ns', 'fn', 'other'
    line = 1
    start = None
    head = ''
    for c in text:
        if c == '\n':
            line += 1
        if c == '{':
            top = all(k == 'ns' for k in stack)
            h = head.strip()
            if top and re.search(r'\bnamespace\b[^;]*$', h):
                stack.append('ns')
            elif top and re.search(r'\)[^;]*$', h) and not re.search(r'\b(class|struct|enum|union)\b[^;)]*$', h):
                stack.append('fn')
                name = re.findall(r'([~\w:]+)\s*\(', h)
                start = (line, name[0] if name else '?')
            else:
                stack.append('other')
            head = ''
        elif c == '}':
            kind = stack.pop() if stack else 'other'
            if kind == 'fn' and start:
                yield start[1], start[0], line - start[0] + 1
                start = None
            head = ''
        elif c == ';':
            head = ''
        else:
            head += c


LAYERS = ('common os pager btree record catalog parser planner exec func main api '
          'ext shell').split()
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 160
# Allowed to be longer: the VM's one big switch (its cases share registers
# and the program counter; splitting it would cost a call per opcode).
LONG_FUNCTIONS = {('src/exec/vm.cc', 'Vm::Run')}


def sources(root):
    import os
    for dirpath, _, names in os.walk(os.path.join(root, 'src')):
        for name in sorted(names):
            if name.endswith(('.cc', '.h')):
                full = os.path.join(dirpath, name)
                yield full, os.path.relpath(full, root)


def check(root):
    problems = []
    rank = {layer: i for i, layer in enumerate(LAYERS)}
    for full, rel in sources(root):
        lines = open(full, encoding='utf-8', errors='replace').read().split('\n')
        if len(lines) > MAX_FILE_LINES:
            problems.append(f'{rel}: {len(lines)} lines (limit {MAX_FILE_LINES})')
        layer = rel.split('/')[1]
        for n, text in enumerate(lines, 1):
            m = re.match(r'#include "(\w+)/', text)
            if m and layer in rank and m.group(1) in rank and rank[m.group(1)] > rank[layer]:
                problems.append(f'{rel}:{n}: {layer}/ includes {m.group(1)}/, a layer above it')
        for name, line, size in functions(full):
            if size > MAX_FUNCTION_LINES and (rel, name) not in LONG_FUNCTIONS:
                problems.append(f'{rel}:{line}: {name} has {size} lines '
                                f'(limit {MAX_FUNCTION_LINES})')
    for p in problems:
        print(p)
    print(f'{len(problems)} problem(s)')
    return 1 if problems else 0


def main():
    args = sys.argv[1:]
    if args[:1] != ['--list']:
        sys.exit(check(args[0] if args else '.'))
    limit = int(args[1])
    found = []
    for path in args[2:]:
        for name, line, size in functions(path):
            if size > limit:
                found.append((size, f'{path}:{line}', name))
    for size, where, name in sorted(found, reverse=True):
        print(f'{size:5d}  {where}  {name}')


if __name__ == '__main__':
    main()
