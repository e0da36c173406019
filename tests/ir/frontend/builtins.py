# RUN: tessera compile %s --entry k_shape --signature "*fp32,*fp32" | FileCheck %s --check-prefix=SHAPE
# RUN: tessera compile %s --entry k_red --signature "*fp32,*fp32" | FileCheck %s --check-prefix=RED
# RUN: tessera compile %s --entry k_narrow --signature "*fp16,*bf16,*i8,*i1,*fp32" | FileCheck %s --check-prefix=NARROW
# RUN: tessera compile %s --entry k_dot --signature "*fp16,*fp32,*i8" | FileCheck %s --check-prefix=DOT
# RUN: tessera compile %s --entry k_math --signature "*fp32,*fp32,*fp16" | FileCheck %s --check-prefix=MATH
# RUN: tessera compile %s --entry k_dbg --signature "*fp32,i32" 2>&1 | FileCheck %s --check-prefix=DBG
# SHAPE-LABEL: kernel @k_shape(%X: ptr<f32>, %Y: ptr<f32>) {
# SHAPE: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# SHAPE: %{{[0-9]+}} = splat %X : tile<16xptr<f32>>
# SHAPE: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16xptr<f32>>
# SHAPE: %x = load %{{[0-9]+}} : tile<16xf32>
# SHAPE: %{{[0-9]+}} = constant {value = 2} : i32
# SHAPE: %a = splat %{{[0-9]+}} : tile<4x16xi32>
# SHAPE: %{{[0-9]+}} = constant {value = 0.0} : f32
# SHAPE: %z = splat %{{[0-9]+}} : tile<16xf32>
# SHAPE: %{{[0-9]+}} = expand_dims %x {axis = 0} : tile<1x16xf32>
# SHAPE: %b = broadcast %{{[0-9]+}} : tile<4x16xf32>
# SHAPE: %e = expand_dims %x {axis = 1} : tile<16x1xf32>
# SHAPE: %r = reshape %b : tile<64xf32>
# SHAPE: %v = reshape %b {can_reorder = true} : tile<16x4xf32>
# SHAPE: %t = trans %b {order = [1, 0]} : tile<16x4xf32>
# SHAPE: %p = trans %b {order = [1, 0]} : tile<16x4xf32>
# SHAPE: %j = join %x, %z : tile<16x2xf32>
# SHAPE: %s0, %s1 = split %j : tile<16xf32>, tile<16xf32>
# SHAPE: %c = cat %x, %z : tile<32xf32>
# SHAPE: %{{[0-9]+}} = constant {value = 0.0} : f32
# SHAPE: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xf32>
# SHAPE: %{{[0-9]+}} = cmp %x, %{{[0-9]+}} {pred = "gt"} : tile<16xi1>
# SHAPE: %{{[0-9]+}} = constant {value = 1.0} : f32
# SHAPE: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xf32>
# SHAPE: %w = select %{{[0-9]+}}, %x, %{{[0-9]+}} : tile<16xf32>
# SHAPE: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# SHAPE: %{{[0-9]+}} = splat %Y : tile<16xptr<f32>>
# SHAPE: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16xptr<f32>>
# SHAPE: %{{[0-9]+}} = add %s0, %s1 : tile<16xf32>
# SHAPE: %{{[0-9]+}} = add %{{[0-9]+}}, %w : tile<16xf32>
# SHAPE: store %{{[0-9]+}}, %{{[0-9]+}}
# RED-LABEL: kernel @k_red(%X: ptr<f32>, %Y: ptr<f32>) {
# RED: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# RED: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 1} : tile<16x1xi32>
# RED: %{{[0-9]+}} = constant {value = 16} : i32
# RED: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x1xi32>
# RED: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<16x1xi32>
# RED: %{{[0-9]+}} = splat %X : tile<16x1xptr<f32>>
# RED: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x1xptr<f32>>
# RED: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# RED: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 0} : tile<1x16xi32>
# RED: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x16xptr<f32>>
# RED: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x16xi32>
# RED: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x16xptr<f32>>
# RED: %x = load %{{[0-9]+}} : tile<16x16xf32>
# RED: %s = reduce %x {axis = 1} : tile<16xf32> {
# RED: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
# RED: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# RED: yield %{{[0-9]+}}
# RED: %{{[0-9]+}} = reduce %x {axis = 0} : tile<16xf32> {
# RED: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
# RED: %{{[0-9]+}} = max %{{[0-9]+}}, %{{[0-9]+}} : f32
# RED: yield %{{[0-9]+}}
# RED: %m = reshape %{{[0-9]+}} : tile<1x16xf32>
# RED: %{{[0-9]+}} = reshape %x {can_reorder = true} : tile<256xf32>
# RED: %mi = reduce %{{[0-9]+}} {axis = 0} : f32 {
# RED: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
# RED: %{{[0-9]+}} = min %{{[0-9]+}}, %{{[0-9]+}} : f32
# RED: yield %{{[0-9]+}}
# RED: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# RED: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 0} : tile<1x16xi32>
# RED: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x16xi32>
# RED: %{{[0-9]+}}, %am = reduce %x, %{{[0-9]+}} {axis = 1} : tile<16xf32>, tile<16xi32> {
# RED: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: i32, %{{[0-9]+}}: f32, %{{[0-9]+}}: i32):
# RED: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "gt"} : i1
# RED: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "eq"} : i1
# RED: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "lt"} : i1
# RED: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : i1
# RED: %{{[0-9]+}} = or %{{[0-9]+}}, %{{[0-9]+}} : i1
# RED: %{{[0-9]+}} = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : f32
# RED: %{{[0-9]+}} = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : i32
# RED: yield %{{[0-9]+}}, %{{[0-9]+}}
# RED: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# RED: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 1} : tile<16x1xi32>
# RED: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x16xi32>
# RED: %{{[0-9]+}}, %an = reduce %x, %{{[0-9]+}} {axis = 0} : tile<16xf32>, tile<16xi32> {
# RED: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: i32, %{{[0-9]+}}: f32, %{{[0-9]+}}: i32):
# RED: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "lt"} : i1
# RED: %{{[0-9]+}} = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : f32
# RED: %{{[0-9]+}} = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : i32
# RED: yield %{{[0-9]+}}, %{{[0-9]+}}
# RED: %r = reduce %x {axis = 1} : tile<16xf32> {
# RED: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
# RED: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# RED: yield %{{[0-9]+}}
# RED: %cs = scan %x {axis = 0, reverse = true} : tile<16x16xf32> {
# RED: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
# RED: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# RED: yield %{{[0-9]+}}
# RED: %cp = scan %x {axis = 1, reverse = false} : tile<16x16xf32> {
# RED: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
# RED: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : f32
# RED: yield %{{[0-9]+}}
# RED: %sc = scan %x {axis = 1, reverse = false} : tile<16x16xf32> {
# RED: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
# RED: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# RED: yield %{{[0-9]+}}
# RED: %xi = cast %x : tile<16x16xi32>
# RED: %xs = reduce %xi {axis = 1} : tile<16xi32> {
# RED: ^bb(%{{[0-9]+}}: i32, %{{[0-9]+}}: i32):
# RED: %{{[0-9]+}} = xor %{{[0-9]+}}, %{{[0-9]+}} : i32
# RED: yield %{{[0-9]+}}
# RED: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# RED: %{{[0-9]+}} = splat %Y : tile<16xptr<f32>>
# RED: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16xptr<f32>>
# RED: %{{[0-9]+}} = add %s, %r : tile<16xf32>
# RED: %{{[0-9]+}} = cast %xs : tile<16xf32>
# RED: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# RED: store %{{[0-9]+}}, %{{[0-9]+}}
# NARROW-LABEL: kernel @k_narrow(%H: ptr<f16>, %B: ptr<bf16>, %I: ptr<i8>, %Z: ptr<i1>, %Y: ptr<f32>) {
# NARROW: %offs = arange {end = 16, start = 0} : tile<16xi32>
# NARROW: %{{[0-9]+}} = splat %H : tile<16xptr<f16>>
# NARROW: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<16xptr<f16>>
# NARROW: %h = load %{{[0-9]+}} : tile<16xf16>
# NARROW: %{{[0-9]+}} = splat %B : tile<16xptr<bf16>>
# NARROW: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<16xptr<bf16>>
# NARROW: %b = load %{{[0-9]+}} : tile<16xbf16>
# NARROW: %{{[0-9]+}} = splat %I : tile<16xptr<i8>>
# NARROW: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<16xptr<i8>>
# NARROW: %i = load %{{[0-9]+}} : tile<16xi8>
# NARROW: %{{[0-9]+}} = splat %Z : tile<16xptr<i1>>
# NARROW: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<16xptr<i1>>
# NARROW: %z = load %{{[0-9]+}} : tile<16xi1>
# NARROW: %{{[0-9]+}} = cast %h : tile<16xf32>
# NARROW: %mh = reduce %{{[0-9]+}} {axis = 0} : f32 {
# NARROW: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
# NARROW: %{{[0-9]+}} = max %{{[0-9]+}}, %{{[0-9]+}} : f32
# NARROW: yield %{{[0-9]+}}
# NARROW: %{{[0-9]+}} = cast %b : tile<16xf32>
# NARROW: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# NARROW: %{{[0-9]+}}, %ab = reduce %{{[0-9]+}}, %{{[0-9]+}} {axis = 0} : f32, i32 {
# NARROW: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: i32, %{{[0-9]+}}: f32, %{{[0-9]+}}: i32):
# NARROW: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "gt"} : i1
# NARROW: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "eq"} : i1
# NARROW: %{{[0-9]+}} = cmp %{{[0-9]+}}, %{{[0-9]+}} {pred = "lt"} : i1
# NARROW: %{{[0-9]+}} = and %{{[0-9]+}}, %{{[0-9]+}} : i1
# NARROW: %{{[0-9]+}} = or %{{[0-9]+}}, %{{[0-9]+}} : i1
# NARROW: %{{[0-9]+}} = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : f32
# NARROW: %{{[0-9]+}} = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : i32
# NARROW: yield %{{[0-9]+}}, %{{[0-9]+}}
# NARROW: %{{[0-9]+}} = cast %i : tile<16xi32>
# NARROW: %mi = reduce %{{[0-9]+}} {axis = 0} : i32 {
# NARROW: ^bb(%{{[0-9]+}}: i32, %{{[0-9]+}}: i32):
# NARROW: %{{[0-9]+}} = min %{{[0-9]+}}, %{{[0-9]+}} : i32
# NARROW: yield %{{[0-9]+}}
# NARROW: %sh = reduce %h {axis = 0} : f16 {
# NARROW: ^bb(%{{[0-9]+}}: f16, %{{[0-9]+}}: f16):
# NARROW: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f16
# NARROW: yield %{{[0-9]+}}
# NARROW: %{{[0-9]+}} = cast %i : tile<16xi32>
# NARROW: %si = reduce %{{[0-9]+}} {axis = 0} : i32 {
# NARROW: ^bb(%{{[0-9]+}}: i32, %{{[0-9]+}}: i32):
# NARROW: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : i32
# NARROW: yield %{{[0-9]+}}
# NARROW: %{{[0-9]+}} = cast %z : tile<16xu32>
# NARROW: %sz = reduce %{{[0-9]+}} {axis = 0} : u32 {
# NARROW: ^bb(%{{[0-9]+}}: u32, %{{[0-9]+}}: u32):
# NARROW: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : u32
# NARROW: yield %{{[0-9]+}}
# NARROW: %{{[0-9]+}} = cast %ab : f32
# NARROW: %{{[0-9]+}} = add %mh, %{{[0-9]+}} : f32
# NARROW: %{{[0-9]+}} = cast %mi : f32
# NARROW: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# NARROW: %{{[0-9]+}} = cast %sh : f32
# NARROW: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# NARROW: %{{[0-9]+}} = cast %si : f32
# NARROW: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# NARROW: %{{[0-9]+}} = cast %sz : f32
# NARROW: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# NARROW: store %Y, %{{[0-9]+}}
# DOT-LABEL: kernel @k_dot(%A: ptr<f16>, %F: ptr<f32>, %I: ptr<i8>) {
# DOT: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# DOT: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 1} : tile<16x1xi32>
# DOT: %{{[0-9]+}} = constant {value = 32} : i32
# DOT: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x1xi32>
# DOT: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<16x1xi32>
# DOT: %{{[0-9]+}} = arange {end = 32, start = 0} : tile<32xi32>
# DOT: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 0} : tile<1x32xi32>
# DOT: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x32xi32>
# DOT: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x32xi32>
# DOT: %r = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16x32xi32>
# DOT: %{{[0-9]+}} = splat %A : tile<16x32xptr<f16>>
# DOT: %{{[0-9]+}} = addptr %{{[0-9]+}}, %r : tile<16x32xptr<f16>>
# DOT: %a = load %{{[0-9]+}} : tile<16x32xf16>
# DOT: %{{[0-9]+}} = arange {end = 32, start = 0} : tile<32xi32>
# DOT: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 1} : tile<32x1xi32>
# DOT: %{{[0-9]+}} = constant {value = 16} : i32
# DOT: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<32x1xi32>
# DOT: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<32x1xi32>
# DOT: %{{[0-9]+}} = splat %A : tile<32x1xptr<f16>>
# DOT: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<32x1xptr<f16>>
# DOT: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# DOT: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 0} : tile<1x16xi32>
# DOT: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<32x16xptr<f16>>
# DOT: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<32x16xi32>
# DOT: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<32x16xptr<f16>>
# DOT: %b = load %{{[0-9]+}} : tile<32x16xf16>
# DOT: %{{[0-9]+}} = constant {value = 0.0} : f32
# DOT: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x16xf32>
# DOT: %c = dot %a, %b, %{{[0-9]+}} : tile<16x16xf32>
# DOT: %c_1 = dot %a, %b, %c : tile<16x16xf32>
# DOT: %{{[0-9]+}} = constant {value = 0.0} : f16
# DOT: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x16xf16>
# DOT: %h = dot %a, %b, %{{[0-9]+}} : tile<16x16xf16>
# DOT: %{{[0-9]+}} = splat %F : tile<16x32xptr<f32>>
# DOT: %{{[0-9]+}} = addptr %{{[0-9]+}}, %r : tile<16x32xptr<f32>>
# DOT: %f = load %{{[0-9]+}} : tile<16x32xf32>
# DOT: %{{[0-9]+}} = arange {end = 32, start = 0} : tile<32xi32>
# DOT: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 1} : tile<32x1xi32>
# DOT: %{{[0-9]+}} = constant {value = 16} : i32
# DOT: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<32x1xi32>
# DOT: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<32x1xi32>
# DOT: %{{[0-9]+}} = splat %F : tile<32x1xptr<f32>>
# DOT: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<32x1xptr<f32>>
# DOT: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# DOT: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 0} : tile<1x16xi32>
# DOT: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<32x16xptr<f32>>
# DOT: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<32x16xi32>
# DOT: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<32x16xptr<f32>>
# DOT: %g = load %{{[0-9]+}} : tile<32x16xf32>
# DOT: %{{[0-9]+}} = constant {value = 0.0} : f32
# DOT: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x16xf32>
# DOT: %d0 = dot %f, %g, %{{[0-9]+}} {input_precision = "tf32"} : tile<16x16xf32>
# DOT: %{{[0-9]+}} = constant {value = 0.0} : f32
# DOT: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x16xf32>
# DOT: %d1 = dot %f, %g, %{{[0-9]+}} {input_precision = "ieee"} : tile<16x16xf32>
# DOT: %{{[0-9]+}} = constant {value = 0.0} : f32
# DOT: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x16xf32>
# DOT: %d2 = dot %f, %g, %{{[0-9]+}} {input_precision = "tf32x3", max_num_imprecise_acc = 0} : tile<16x16xf32>
# DOT: %{{[0-9]+}} = splat %I : tile<16x32xptr<i8>>
# DOT: %{{[0-9]+}} = addptr %{{[0-9]+}}, %r : tile<16x32xptr<i8>>
# DOT: %i = load %{{[0-9]+}} : tile<16x32xi8>
# DOT: %{{[0-9]+}} = arange {end = 32, start = 0} : tile<32xi32>
# DOT: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 1} : tile<32x1xi32>
# DOT: %{{[0-9]+}} = constant {value = 16} : i32
# DOT: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<32x1xi32>
# DOT: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<32x1xi32>
# DOT: %{{[0-9]+}} = splat %I : tile<32x1xptr<i8>>
# DOT: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<32x1xptr<i8>>
# DOT: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# DOT: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 0} : tile<1x16xi32>
# DOT: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<32x16xptr<i8>>
# DOT: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<32x16xi32>
# DOT: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<32x16xptr<i8>>
# DOT: %j = load %{{[0-9]+}} : tile<32x16xi8>
# DOT: %{{[0-9]+}} = constant {value = 0} : i32
# DOT: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x16xi32>
# DOT: %k = dot %i, %j, %{{[0-9]+}} : tile<16x16xi32>
# DOT: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# DOT: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 1} : tile<16x1xi32>
# DOT: %{{[0-9]+}} = constant {value = 16} : i32
# DOT: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16x1xi32>
# DOT: %{{[0-9]+}} = mul %{{[0-9]+}}, %{{[0-9]+}} : tile<16x1xi32>
# DOT: %{{[0-9]+}} = splat %F : tile<16x1xptr<f32>>
# DOT: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x1xptr<f32>>
# DOT: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# DOT: %{{[0-9]+}} = expand_dims %{{[0-9]+}} {axis = 0} : tile<1x16xi32>
# DOT: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x16xptr<f32>>
# DOT: %{{[0-9]+}} = broadcast %{{[0-9]+}} : tile<16x16xi32>
# DOT: %{{[0-9]+}} = addptr %{{[0-9]+}}, %{{[0-9]+}} : tile<16x16xptr<f32>>
# DOT: %{{[0-9]+}} = cast %h : tile<16x16xf32>
# DOT: %{{[0-9]+}} = add %c_1, %{{[0-9]+}} : tile<16x16xf32>
# DOT: %{{[0-9]+}} = add %{{[0-9]+}}, %d0 : tile<16x16xf32>
# DOT: %{{[0-9]+}} = add %{{[0-9]+}}, %d1 : tile<16x16xf32>
# DOT: %{{[0-9]+}} = add %{{[0-9]+}}, %d2 : tile<16x16xf32>
# DOT: %{{[0-9]+}} = cast %k : tile<16x16xf32>
# DOT: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16x16xf32>
# DOT: store %{{[0-9]+}}, %{{[0-9]+}}
# MATH-LABEL: kernel @k_math(%X: ptr<f32>, %Y: ptr<f32>, %H: ptr<f16>) {
# MATH: %offs = arange {end = 16, start = 0} : tile<16xi32>
# MATH: %{{[0-9]+}} = splat %X : tile<16xptr<f32>>
# MATH: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<16xptr<f32>>
# MATH: %x = load %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = splat %H : tile<16xptr<f16>>
# MATH: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<16xptr<f16>>
# MATH: %h = load %{{[0-9]+}} : tile<16xf16>
# MATH: %{{[0-9]+}} = exp %x {approx = true} : tile<16xf32>
# MATH: %{{[0-9]+}} = exp2 %x {approx = true} : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = log %x : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = log2 %x : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = sqrt %x {approx = true} : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = sqrt %x : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = rsqrt %x {approx = true} : tile<16xf32>
# MATH: %r = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = sin %x : tile<16xf32>
# MATH: %{{[0-9]+}} = cos %x : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = abs %x : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = floor %x : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = ceil %x : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = erf %x : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %r_1 = add %r, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = constant {value = 1.0} : f32
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = fma %x, %x, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = neg %x : tile<16xf32>
# MATH: %{{[0-9]+}} = exp %{{[0-9]+}} {approx = true} : tile<16xf32>
# MATH: %{{[0-9]+}} = constant {value = 1.0} : f32
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = constant {value = 1.0} : f32
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = div %{{[0-9]+}}, %{{[0-9]+}} {approx = true} : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = reduce %x {axis = 0} : f32 {
# MATH: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
# MATH: %{{[0-9]+}} = max %{{[0-9]+}}, %{{[0-9]+}} : f32
# MATH: yield %{{[0-9]+}}
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xf32>
# MATH: %z = sub %x, %{{[0-9]+}} : tile<16xf32>
# MATH: %num = exp %z {approx = true} : tile<16xf32>
# MATH: %den = reduce %num {axis = 0} : f32 {
# MATH: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : f32
# MATH: yield %{{[0-9]+}}
# MATH: %{{[0-9]+}} = splat %den : tile<16xf32>
# MATH: %{{[0-9]+}} = div %num, %{{[0-9]+}} {approx = true} : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %r_2 = add %r_1, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = constant {value = 0.0} : f32
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = max %x, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = constant {value = 1.0} : f32
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = min %x, %{{[0-9]+}} {propagate_nan = true} : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = constant {value = 0.0} : f32
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = constant {value = 1.0} : f32
# MATH: %{{[0-9]+}} = max %x, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = min %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %r_3 = add %r_2, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = constant {value = 3.0} : f32
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = div %x, %{{[0-9]+}} {approx = true} : tile<16xf32>
# MATH: %{{[0-9]+}} = constant {value = 3.0} : f32
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = div %x, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = exp %h {approx = true} : tile<16xf16>
# MATH: %{{[0-9]+}} = cast %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xf32>
# MATH: %r_4 = add %r_3, %{{[0-9]+}} : tile<16xf32>
# MATH: %{{[0-9]+}} = cast %offs : tile<16xu32>
# MATH: %{{[0-9]+}} = constant {value = 7} : u32
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xu32>
# MATH: %u = mulhi %{{[0-9]+}}, %{{[0-9]+}} : tile<16xu32>
# MATH: %{{[0-9]+}} = constant {value = 4} : i32
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xi32>
# MATH: %{{[0-9]+}} = add %offs, %{{[0-9]+}} : tile<16xi32>
# MATH: %{{[0-9]+}} = constant {value = 1} : i32
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xi32>
# MATH: %{{[0-9]+}} = sub %{{[0-9]+}}, %{{[0-9]+}} : tile<16xi32>
# MATH: %{{[0-9]+}} = constant {value = 4} : i32
# MATH: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xi32>
# MATH: %c = div %{{[0-9]+}}, %{{[0-9]+}} : tile<16xi32>
# MATH: %hb = cast %x {rounding = "rtz"} : tile<16xf16>
# MATH: %bc = bitcast %x : tile<16xi32>
# MATH: %cc = cast %x : tile<16xbf16>
# MATH: %{{[0-9]+}} = cast %h : tile<16xf32>
# MATH: %mh = reduce %{{[0-9]+}} {axis = 0} : f32 {
# MATH: ^bb(%{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
# MATH: %{{[0-9]+}} = max %{{[0-9]+}}, %{{[0-9]+}} : f32
# MATH: yield %{{[0-9]+}}
# MATH: %{{[0-9]+}} = splat %Y : tile<16xptr<f32>>
# MATH: %{{[0-9]+}} = addptr %{{[0-9]+}}, %offs : tile<16xptr<f32>>
# MATH: store %{{[0-9]+}}, %r_4
# DBG: n is tensor of type i32
# DBG-LABEL: kernel @k_dbg(%X: ptr<f32>, %n: i32) {
# DBG: %pid = program_id {axis = 0} : i32
# DBG: %{{[0-9]+}} = constant {value = 16} : i32
# DBG: %{{[0-9]+}} = mul %pid, %{{[0-9]+}} : i32
# DBG: %offs = hint %{{[0-9]+}} {divisibility = [16]} : i32
# DBG: %{{[0-9]+}} = arange {end = 16, start = 0} : tile<16xi32>
# DBG: %o2 = hint %{{[0-9]+}} {contiguity = [16]} : tile<16xi32>
# DBG: %{{[0-9]+}} = constant {value = 0} : i32
# DBG: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xi32>
# DBG: %{{[0-9]+}} = splat %offs : tile<16xi32>
# DBG: %{{[0-9]+}} = add %{{[0-9]+}}, %{{[0-9]+}} : tile<16xi32>
# DBG: %o3 = hint %{{[0-9]+}} {constancy = [4]} : tile<16xi32>
# DBG: %{{[0-9]+}} = constant {value = 0} : i32
# DBG: %{{[0-9]+}} = cmp %n, %{{[0-9]+}} {pred = "gt"} : i1
# DBG: assume %{{[0-9]+}}
# DBG: barrier
# DBG: print %pid, %n {prefix = " pid: "}
# DBG: print %o2 {hex = true, prefix = " hex: "}
# DBG: %{{[0-9]+}} = constant {value = 16} : i32
# DBG: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xi32>
# DBG: %{{[0-9]+}} = cmp %o2, %{{[0-9]+}} {pred = "lt"} : tile<16xi1>
# DBG: assert %{{[0-9]+}} {message = "out of range"}
# DBG: %{{[0-9]+}} = addptr %X, %offs : ptr<f32>
# DBG: %{{[0-9]+}} = splat %{{[0-9]+}} : tile<16xptr<f32>>
# DBG: %{{[0-9]+}} = addptr %{{[0-9]+}}, %o2 : tile<16xptr<f32>>
# DBG: %x = load %{{[0-9]+}} : tile<16xf32>
# The builtins of tl that build, reshape, reduce, scan and compute on tiles,
# and the hint and debugging builtins.
import tessera
import tessera.language as tl

@tessera.jit
def combine(a, b):
    return a + b

@tessera.jit
def k_shape(X, Y):
    x = tl.load(X + tl.arange(0, 16))
    a = tl.full([4, 16], 2, tl.int32)
    z = tl.zeros_like(x)
    b = tl.broadcast_to(x[None, :], (4, 16))
    e = tl.expand_dims(x, 1)
    r = tl.reshape(b, (64,))
    v = tl.view(b, (16, 4))
    t = tl.trans(b)
    p = tl.permute(b, (1, 0))
    j = tl.join(x, z)
    s0, s1 = tl.split(j)
    c = tl.cat(x, z, can_reorder=True)
    w = tl.where(x > 0, x, 1.0)
    tl.store(Y + tl.arange(0, 16), s0 + s1 + w)

@tessera.jit
def k_red(X, Y):
    x = tl.load(X + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    s = tl.sum(x, axis=1)
    m = tl.max(x, 0, keep_dims=True)
    mi = tl.min(x)
    am = tl.argmax(x, 1)
    an = tl.argmin(x, axis=0, tie_break_left=False)
    r = tl.reduce(x, 1, combine)
    cs = tl.cumsum(x, 0, reverse=True)
    cp = tl.cumprod(x, 1)
    sc = tl.associative_scan(x, 1, combine)
    xi = x.to(tl.int32)
    xs = tl.xor_sum(xi, 1)
    tl.store(Y + tl.arange(0, 16), s + r + xs)


@tessera.jit
def k_narrow(H, B, I, Z, Y):
    offs = tl.arange(0, 16)
    h = tl.load(H + offs)
    b = tl.load(B + offs)
    i = tl.load(I + offs)
    z = tl.load(Z + offs)
    mh = tl.max(h, 0)          # fp16 reduces in fp32
    ab = tl.argmax(b, 0)       # bf16 compares in fp32
    mi = tl.min(i, 0)          # int8 reduces in int32
    sh = tl.sum(h, 0)          # sum keeps fp16
    si = tl.sum(i, 0)          # int8 sums in int32
    sz = tl.sum(z, 0)          # int1 sums in uint32
    tl.store(Y, mh + ab + mi + sh + si + sz)


@tessera.jit
def k_dot(A, F, I):
    r = tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :]
    a = tl.load(A + r)
    b = tl.load(A + tl.arange(0, 32)[:, None] * 16 + tl.arange(0, 16)[None, :])
    c = tl.dot(a, b)
    c = tl.dot(a, b, c, out_dtype=tl.float32)
    h = tl.dot(a, b, out_dtype=tl.float16)
    f = tl.load(F + r)
    g = tl.load(F + tl.arange(0, 32)[:, None] * 16 + tl.arange(0, 16)[None, :])
    d0 = tl.dot(f, g)
    d1 = tl.dot(f, g, input_precision="ieee")
    d2 = tl.dot(f, g, input_precision="tf32x3", max_num_imprecise_acc=0)
    i = tl.load(I + r)
    j = tl.load(I + tl.arange(0, 32)[:, None] * 16 + tl.arange(0, 16)[None, :])
    k = tl.dot(i, j)
    tl.store(F + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], c + h + d0 + d1 + d2 + k)
def k_math(X, Y, H):
    offs = tl.arange(0, 16)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    r = tl.exp(x) + tl.exp2(x) + tl.log(x) + tl.log2(x) + tl.sqrt(x) + tl.sqrt_rn(x) + tl.rsqrt(x)
    r += tl.sin(x) + tl.cos(x) + tl.abs(x) + tl.floor(x) + tl.ceil(x) + tl.erf(x)
    r += tl.fma(x, x, 1.0) + tl.sigmoid(x) + tl.softmax(x)
    r += tl.maximum(x, 0.0) + tl.minimum(x, 1.0, propagate_nan=tl.PropagateNan.ALL) + tl.clamp(x, 0.0, 1.0)
    r += tl.fdiv(x, 3.0) + tl.div_rn(x, 3.0) + tl.math.exp(h)
    u = tl.umulhi(offs.to(tl.uint32), 7)
    c = tl.cdiv(offs, 4)
    hb = x.to(tl.float16, fp_downcast_rounding="rtz")
    bc = x.to(tl.int32, bitcast=True)
    cc = tl.cast(x, tl.bfloat16)
    mh = tl.max(h, 0)
    tl.store(Y + offs, r)


@tessera.jit
def k_dbg(X, n):
    pid = tl.program_id(0)
    offs = tl.multiple_of(pid * 16, 16)
    o2 = tl.max_contiguous(tl.arange(0, 16), 16)
    o3 = tl.max_constancy(offs + tl.zeros([16], tl.int32), 4)
    tl.assume(n > 0)
    tl.debug_barrier()
    tl.static_assert(16 > 0, "positive")
    tl.static_print("n is", n)
    tl.device_print("pid", pid, n)
    tl.device_print("hex", o2, hex=True)
    tl.device_assert(o2 < 16, "out of range")
    x = tl.load(X + offs + o2)

