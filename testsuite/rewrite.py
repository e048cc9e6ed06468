#!/usr/bin/env python3
"""rewrite.py - semantically neutral rewrites of a program, for the property
test of testsuite/properties.test: each must predict exactly what the
program predicts.

Usage: rewrite.py MODE FILE > OUT, where FILE is free-form source as
`hpfc --unparse` writes it (one statement a line, blocks indented, every
declaration with ::), and MODE one of

  continue   a CONTINUE statement after every executable statement that
             can be followed by one (not inside FORALL or WHERE constructs)
  labeldo    every DO loop with END DO written `DO nnn ...` ending on
             `nnn CONTINUE`, the Fortran 77 form
  split      every assignment split over two lines after its '='
             (a continuation line)
  labels     a label on every executable statement that may carry one

Prints the rewritten source; exits 0 (a program with nothing to rewrite is
printed as it is).
"""
import re
import sys

UNIT_START = re.compile(r'^\s*(program|([\w(),*=]+\s+)*(subroutine|function)|module)\b', re.I)
# `end`, `end program x` and the like; not `end where`, `end forall`, `end do`
UNIT_END = re.compile(r'^\s*end\s*((program|subroutine|function|module)\b.*)?$', re.I)
DO = re.compile(r'^(\s*)(\d+\s+)?do(\s+(?!while\b)[a-z]\w*\s*=.*)$', re.I)
ANY_DO = re.compile(r'^\s*(\d+\s+)?do(\s+while\b|\s*$|\s+[a-z]\w*\s*=)', re.I)
END_DO = re.compile(r'^(\s*)(\d+\s+)?end\s*do\s*$', re.I)
BLOCK_HEAD = re.compile(r'^\s*(forall|where)\s*\(', re.I)


class _Opener:
    """A FORALL or WHERE construct's first line: the keyword and its
    parenthesized header with nothing after it (not the statement forms)."""

    def match(self, ln):
        m = BLOCK_HEAD.match(ln)
        if not m:
            return None
        depth = 0
        for k in range(m.end() - 1, len(ln)):
            if ln[k] == '(':
                depth += 1
            elif ln[k] == ')':
                depth -= 1
                if depth == 0:
                    return m if not ln[k + 1:].strip() else None
        return None


BLOCK_OPEN = _Opener()
BLOCK_CLOSE = re.compile(r'^\s*end\s*(forall|where)\b', re.I)
# (no quote before the '=': `write (*, '(a)') 'x =', x` is no assignment)
ASSIGN = re.compile(r'^(\s*)([a-z]\w*(\s*\([^=\'"]*\))?\s*=)(?!=)(.*)$', re.I)
NOT_EXEC = re.compile(
    r'^\s*(!|implicit\b|use\b|contains\b|end\b|else\b|case\b|'
    r'(integer|real|double|complex|logical|character|type|dimension|parameter|'
    r'common|save|data|external|intrinsic|allocatable|equivalence|namelist|public|private)\b)',
    re.I)


def statements(lines):
    """Yield (index, kind) for each line: 'exec' for an executable statement
    at the top level of its unit's execution part (not inside a FORALL or
    WHERE construct), 'block' inside one, 'spec' otherwise."""
    in_exec = False
    depth = 0
    cont = False
    for i, ln in enumerate(lines):
        s = ln.strip()
        # a continuation line belongs to the statement before it
        was_cont, cont = cont, s.endswith('&') and not s.startswith('!')
        if was_cont:
            yield i, 'cont'
            continue
        if UNIT_START.match(ln) and not UNIT_END.match(ln):
            in_exec = False
            depth = 0
            yield i, 'spec'
            continue
        if not s or s.startswith('!') or '::' in s and not in_exec:
            yield i, 'spec'
            continue
        if re.match(r'^\s*contains\b', ln, re.I):
            in_exec = False
            yield i, 'spec'
            continue
        if UNIT_END.match(ln) and not END_DO.match(ln):
            yield i, 'spec'
            continue
        if BLOCK_CLOSE.match(ln):
            depth -= 1
            yield i, 'block'
            continue
        if depth:
            if BLOCK_OPEN.match(ln):
                depth += 1
            yield i, 'block'
            continue
        if not in_exec and NOT_EXEC.match(ln) and not re.match(r'^\s*end\s*(do|if)\b', ln, re.I):
            yield i, 'spec'
            continue
        in_exec = True
        if BLOCK_OPEN.match(ln):
            depth += 1
        yield i, 'exec'


def indent_of(ln):
    return ln[:len(ln) - len(ln.lstrip())]


def rw_continue(lines):
    out = []
    pending = None
    for i, kind in statements(lines):
        ln = lines[i]
        if kind != 'cont' and pending is not None:
            out.append(pending)
            pending = None
        out.append(ln)
        # after a block opener (IF THEN, DO, FORALL, WHERE) only where the
        # opened block may hold a CONTINUE; after the statement's last line
        if kind == 'exec' and not BLOCK_OPEN.match(ln) and not re.match(
                r'^\s*(select\b|case\b)', ln, re.I):
            pending = indent_of(ln) + 'continue'
    if pending is not None:
        out.append(pending)
    return out


def rw_labeldo(lines):
    out = list(lines)
    stack = []
    label = 9000
    for i, kind in statements(lines):
        if kind != 'exec':
            continue
        m = DO.match(lines[i])
        if m and not m.group(2):
            label += 1
            stack.append(label)
            out[i] = '%sdo %d%s' % (m.group(1), label, m.group(3))
            continue
        if m or ANY_DO.match(lines[i]):
            stack.append(None)     # DO WHILE, DO forever: left as they are
            continue
        m = END_DO.match(lines[i])
        if m:
            lab = stack.pop() if stack else None
            if lab is not None and not m.group(2):
                out[i] = '%s%d continue' % (m.group(1), lab)
    return out


def rw_split(lines):
    out = []
    for i, kind in statements(lines):
        ln = lines[i]
        m = ASSIGN.match(ln)
        if kind == 'exec' and m and m.group(4).strip() and not ln.rstrip().endswith('&'):
            out.append(m.group(1) + m.group(2) + ' &')
            out.append(m.group(1) + '    ' + m.group(4).strip())
        else:
            out.append(ln)
    return out


def rw_labels(lines):
    out = list(lines)
    label = 8000
    for i, kind in statements(lines):
        ln = lines[i]
        if kind != 'exec' or re.match(r'^\s*\d', ln):
            continue
        label += 1
        out[i] = '%d %s' % (label, ln.lstrip())
    return out


MODES = {'continue': rw_continue, 'labeldo': rw_labeldo, 'split': rw_split,
         'labels': rw_labels}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in MODES:
        sys.stderr.write('usage: rewrite.py continue|labeldo|split|labels FILE\n')
        return 2
    with open(sys.argv[2]) as f:
        lines = f.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    sys.stdout.write('\n'.join(MODES[sys.argv[1]](lines)) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
