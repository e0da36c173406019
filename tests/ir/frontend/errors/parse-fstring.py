# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s --strict-whitespace
# Malformed f-strings are lexical errors, each at its place; lexing goes on
# after each, so one run reports them all (in order).
# CHECK: parse-fstring.py:[[@LINE+28]]:12: error: f-string: single '}' is not allowed
# CHECK-NEXT: {{^}}    a = f'x}y'
# CHECK-NEXT: {{^}}           ^
# CHECK: parse-fstring.py:[[@LINE+26]]:12: error: f-string: expecting '}'
# CHECK-NEXT: {{^}}    b = f'x{X'
# CHECK-NEXT: {{^}}           ^
# CHECK: parse-fstring.py:[[@LINE+24]]:11: error: f-string: expecting '}' (a string inside a field must use other quotes than the f-string's own, as before Python 3.12)
# CHECK-NEXT: {{^}}    c = f'{X['k']}'
# CHECK-NEXT: {{^}}          ^
# CHECK: parse-fstring.py:[[@LINE+22]]:11: error: f-string: empty expression not allowed
# CHECK: parse-fstring.py:[[@LINE+22]]:14: error: f-string: invalid conversion character 'x': expected 's', 'r', or 'a'
# CHECK-NEXT: {{^}}    e = f'{X!x}'
# CHECK-NEXT: {{^}}             ^
# CHECK: parse-fstring.py:[[@LINE+20]]:14: error: f-string: missing conversion character after '!'
# CHECK: parse-fstring.py:[[@LINE+20]]:17: error: f-string: expressions nested too deeply
# CHECK-NEXT: {{^}}    g = f'{X:{X:{X}}}'
# CHECK-NEXT: {{^}}                ^
# CHECK: parse-fstring.py:[[@LINE+18]]:13: error: f-string expression part cannot include '#'
# CHECK: parse-fstring.py:[[@LINE+18]]:13: error: f-string: unmatched ')'
# CHECK: parse-fstring.py:[[@LINE+18]]:14: error: f-string: closing parenthesis ']' does not match opening parenthesis '('
# CHECK: parse-fstring.py:[[@LINE+18]]:11: error: named Unicode escapes (\N{...}) are not supported in f-strings
# CHECK: parse-fstring.py:[[@LINE+18]]:14: error: expected '}' after the f-string field's expression, found 'Y'
# CHECK-NEXT: {{^}}    m = f'{X Y}'
# CHECK-NEXT: {{^}}             ^
# CHECK-NOT: error
import tessera.language as tl

def k(X):
    a = f'x}y'
    b = f'x{X'
    c = f'{X['k']}'
    d = f'{ }'
    e = f'{X!x}'
    f = f'{X!}'
    g = f'{X:{X:{X}}}'
    h = f'{X#}'
    i = f'{X)}'
    j = f'{(X]}'
    l = f'\N{BULLET}'
    m = f'{X Y}'
