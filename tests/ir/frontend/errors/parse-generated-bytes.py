# RUN: printf 'def k(X):\n    x = 1 \\' > %t.eof.py
# RUN: not tessera compile %t.eof.py --entry k 2>&1 | FileCheck %s --strict-whitespace --check-prefix=EOF
# RUN: printf 'def k(X):\n    x = 1 \377 2\n' > %t.utf8.py
# RUN: not tessera compile %t.utf8.py --entry k 2>&1 | FileCheck %s --strict-whitespace --check-prefix=UTF8
# RUN: printf "def k(X):\n    x = 'abc" > %t.string.py
# RUN: not tessera compile %t.string.py --entry k 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STRING
# Lexer errors whose input a test file should not hold itself (the RUN lines
# write it): a file that ends inside a line continuation or inside a string,
# and a byte that is not UTF-8.
# EOF: .eof.py:2:11: error: unexpected end of file after line continuation character
# EOF-NEXT: {{^}}    x = 1 \
# EOF-NEXT: {{^}}          ^
# UTF8: .utf8.py:2:11: error: invalid UTF-8 byte 0xFF in source
# UTF8-NEXT: {{^}}    x = 1 {{.}} 2
# UTF8-NEXT: {{^}}          ^
# STRING: .string.py:2:9: error: unterminated string literal
# STRING-NEXT: {{^}}    x = 'abc
# STRING-NEXT: {{^}}        ^
