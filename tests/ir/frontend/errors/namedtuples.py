# RUN: not tessera compile %s --entry k --signature "Point(x=i32, y=i32)" -D KIND=0 -D "P=namedtuple_class:Point(x, y, z=7)" 2>&1 | FileCheck %s --check-prefix=FIELD
# RUN: not tessera compile %s --entry k --signature "Point(x=i32, y=i32)" -D KIND=1 -D "P=namedtuple_class:Point(x, y, z=7)" 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not tessera compile %s --entry k --signature "Point(x=i32, y=i32)" -D KIND=2 -D "P=namedtuple_class:Point(x, y, z=7)" 2>&1 | FileCheck %s --check-prefix=MANY
# RUN: not tessera compile %s --entry k --signature "Point(x=i32, y=i32)" -D KIND=3 -D "P=namedtuple_class:Point(x, y, z=7)" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# RUN: not tessera compile %s --entry k --signature "Point(x=i32, y=i32)" -D KIND=4 -D "P=namedtuple_class:Point(x, y, z=7)" 2>&1 | FileCheck %s --check-prefix=TWICE
# RUN: not tessera compile %s --entry k --signature "Point(x=i32, i32)" -D KIND=0 2>&1 | FileCheck %s --check-prefix=SPEC
# RUN: not tessera compile %s --entry k --signature "Point(x=i32, y=i32" -D KIND=0 2>&1 | FileCheck %s --check-prefix=SPELLING
# A namedtuple has only its fields; making one binds each field once, as
# Python does; the signature names every field.
import tessera.language as tl


def k(p, KIND: tl.constexpr, P: tl.constexpr):
    if KIND == 0:
        q = p.w
# FIELD: namedtuples.py:[[@LINE-1]]:13: error: namedtuple Point has no attribute 'w' (its fields: x, y)
    elif KIND == 1:
        q = P(1)
# MISSING: namedtuples.py:[[@LINE-1]]:13: error: Point() is missing field 'y'
    elif KIND == 2:
        q = P(1, 2, 3, 4)
# MANY: namedtuples.py:[[@LINE-1]]:13: error: Point() takes 3 fields, 4 were given
    elif KIND == 3:
        q = P(1, 2, w=3)
# UNKNOWN: namedtuples.py:[[@LINE-1]]:13: error: Point() has no field 'w'
    else:
        q = P(1, 2, x=3)
# TWICE: namedtuples.py:[[@LINE-1]]:13: error: Point() got field 'x' twice
# SPEC: bad namedtuple field 'i32' in 'Point(x=i32,i32)' (expected name=type)
# SPELLING: bad tuple type 'Point(x=i32,y=i32' (expected e.g. (*fp32, (i32, constexpr)) or Point(x=i32, y=constexpr))
