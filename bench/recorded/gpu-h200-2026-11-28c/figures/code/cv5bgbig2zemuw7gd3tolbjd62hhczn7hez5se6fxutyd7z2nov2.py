# AOT ID: ['1_backward']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


# kernel path: /tmp/torchinductor_root/a4/ca4z5y3otg2jojtc6bevuys4erc46q32vkfzkmjtw5titeda3rf5.py
# Topologically Sorted Source Nodes: [hidden_states_21, hidden_states_22], Original ATen: [aten.mul]
# Source node to ATen node mapping:
#   hidden_states_21 => mul_20
#   hidden_states_22 => mul_21
# Graph fragment:
#   %primals_22 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_22]
#   %add_16 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_16]
#   %rsqrt_4 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=rsqrt_4]
#   %mul_20 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_16, %rsqrt_4), kwargs = {})
#   %mul_21 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%primals_22, %mul_20), kwargs = {})
#   return %mul_21
triton_poi_fused_mul_0 = async_compile.triton('triton_poi_fused_mul_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 2048, 'x': 64}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_mul_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 8192, 'x': 1573120}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_mul_0(in_ptr0, in_ptr1, in_ptr2, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 2048
    xnumel = 64
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (x1), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (x1 + 64*y0), xmask, eviction_policy='evict_last')
    tmp2 = tl.load(in_ptr2 + (y0), None, eviction_policy='evict_last')
    tmp3 = tmp1 * tmp2
    tmp4 = tmp0 * tmp3
    tl.store(out_ptr0 + (x1 + 64*y0), tmp4, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/yy/cyygiulzshucmzsc7a2wfxfspwg3ylf7uo2xsoijflfgkd6hhcxk.py
# Topologically Sorted Source Nodes: [div_3, flatten_1, unsqueeze_20, ne_3, full_default_6, where_4, ne_4, full_default_8, where_5, mul_22, cross_entropy, exp_3, sum_4, mul_23, sub_2], Original ATen: [aten.nll_loss_backward, aten.view, aten.arange, aten.expand, aten.eq, aten.scalar_tensor, aten.where, aten._log_softmax, aten._log_softmax_backward_data]
# Source node to ATen node mapping:
#   cross_entropy => sub, sub_1
#   div_3 => div_3
#   exp_3 => exp_3
#   flatten_1 => view_47
#   full_default_6 => full_default_6
#   full_default_8 => full_default_8
#   mul_22 => mul_22
#   mul_23 => mul_23
#   ne_3 => ne_3
#   ne_4 => ne_4
#   sub_2 => sub_2
#   sum_4 => sum_4
#   unsqueeze_20 => unsqueeze_20
#   where_4 => where_4
#   where_5 => where_5
# Graph fragment:
#   %primals_24 : Tensor "i64[8, 256][256, 1]cuda:0" = PlaceHolder[target=primals_24]
#   %tangents_1 : Tensor "f32[][]cuda:0" = PlaceHolder[target=tangents_1]
#   %convert_element_type_1 : Tensor "f32[][]cuda:0" = PlaceHolder[target=convert_element_type_1]
#   %mm_14 : Tensor "f32[2048, 512][512, 1]cuda:0" = PlaceHolder[target=mm_14]
#   %amax : Tensor "f32[2048, 1][1, 1]cuda:0" = PlaceHolder[target=amax]
#   %log : Tensor "f32[2048, 1][1, 1]cuda:0" = PlaceHolder[target=log]
#   %sum_4 : Tensor "f32[2048, 1][1, 2048]cuda:0" = PlaceHolder[target=sum_4]
#   %div_3 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%tangents_1, %convert_element_type_1), kwargs = {})
#   %view_47 : Tensor "i64[2048][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%primals_24, [2048]), kwargs = {})
#   %unsqueeze_20 : Tensor "i64[2048, 1][1, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%view_47, 1), kwargs = {})
#   %ne_3 : Tensor "b8[2048, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.ne.Scalar](args = (%unsqueeze_20, -100), kwargs = {})
#   %full_default_6 : Tensor "i64[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0), kwargs = {dtype: torch.int64, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_4 : Tensor "i64[2048, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%ne_3, %unsqueeze_20, %full_default_6), kwargs = {})
#   %iota_default : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (512,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %view_default : Tensor "i64[1, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%iota_default, [1, 512]), kwargs = {})
#   %expand_default : Tensor "i64[2048, 512][1, 0]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_4, [2048, 512]), kwargs = {})
#   %eq_tensor : Tensor "b8[2048, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Tensor](args = (%expand_default, %view_default), kwargs = {})
#   %scalar_tensor_default : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.scalar_tensor.default](args = (0,), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0})
#   %scalar_tensor_default_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.scalar_tensor.default](args = (-1.0,), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0})
#   %where_self : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%eq_tensor, %scalar_tensor_default_1, %scalar_tensor_default), kwargs = {})
#   %ne_4 : Tensor "b8[2048, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.ne.Scalar](args = (%unsqueeze_20, -100), kwargs = {})
#   %full_default_8 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_5 : Tensor "f32[2048, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%ne_4, %div_3, %full_default_8), kwargs = {})
#   %mul_22 : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%where_self, %where_5), kwargs = {})
#   %sub : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mm_14, %amax), kwargs = {})
#   %sub_1 : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%sub, %log), kwargs = {})
#   %exp_3 : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%sub_1,), kwargs = {})
#   %sum_4 : Tensor "f32[2048, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_22, [1], True), kwargs = {})
#   %mul_23 : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%exp_3, %sum_4), kwargs = {})
#   %sub_2 : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_22, %mul_23), kwargs = {})
#   return %sum_4,%sub_2
triton_per_fused__log_softmax__log_softmax_backward_data_arange_eq_expand_nll_loss_backward_scalar_tensor_view_where_1 = async_compile.triton('triton_per_fused__log_softmax__log_softmax_backward_data_arange_eq_expand_nll_loss_backward_scalar_tensor_view_where_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2048, 'r0_': 512},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__log_softmax__log_softmax_backward_data_arange_eq_expand_nll_loss_backward_scalar_tensor_view_where_1', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 32768, 'r0_': 12582912}}
)
@triton.jit
def triton_per_fused__log_softmax__log_softmax_backward_data_arange_eq_expand_nll_loss_backward_scalar_tensor_view_where_1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2048
    r0_numel = 512
    R0_BLOCK: tl.constexpr = 512
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    x0 = xindex
    r0_1 = r0_index
    tmp0 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr1 + (0))
    tmp11 = tl.broadcast_to(tmp10, [1, 1])
    tmp12 = tl.load(in_ptr2 + (0))
    tmp13 = tl.broadcast_to(tmp12, [1, 1])
    tmp21 = tl.load(in_out_ptr0 + (r0_1 + 512*x0), xmask, other=0.0)
    tmp22 = tl.load(in_ptr3 + (x0), xmask, eviction_policy='evict_last')
    tmp24 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp1 = tl.full([1, 1], -100, tl.int64)
    tmp2 = tmp0 != tmp1
    tmp3 = tl.full([1, 1], 0, tl.int64)
    tmp4 = tl.where(tmp2, tmp0, tmp3)
    tmp5 = r0_1
    tmp6 = tmp4 == tmp5
    tmp7 = tl.full([1, 1], -1.0, tl.float32)
    tmp8 = tl.full([1, 1], 0.0, tl.float32)
    tmp9 = tl.where(tmp6, tmp7, tmp8)
    tmp14 = (tmp11 / tmp13)
    tmp15 = tl.where(tmp2, tmp14, tmp8)
    tmp16 = tmp9 * tmp15
    tmp17 = tl.broadcast_to(tmp16, [XBLOCK, R0_BLOCK])
    tmp19 = tl.where(xmask, tmp17, 0)
    tmp20 = tl.sum(tmp19, 1)[:, None].to(tl.float32)
    tmp23 = tmp21 - tmp22
    tmp25 = tmp23 - tmp24
    tmp26 = libdevice.exp(tmp25)
    tmp27 = tmp26 * tmp20
    tmp28 = tmp16 - tmp27
    tl.store(in_out_ptr0 + (r0_1 + 512*x0), tmp28, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/jm/cjmm5lrocishsfumejfyzxjy4fhevy44tgayc2sjeafi3lv2evpv.py
# Topologically Sorted Source Nodes: [hidden_states_21, view_50, mul_25, sum_5], Original ATen: [aten.mul, aten.view, aten.sum]
# Source node to ATen node mapping:
#   hidden_states_21 => mul_20
#   mul_25 => mul_25
#   sum_5 => sum_5
#   view_50 => view_50
# Graph fragment:
#   %mm_16 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_16]
#   %add_16 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_16]
#   %rsqrt_4 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=rsqrt_4]
#   %mul_20 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_16, %rsqrt_4), kwargs = {})
#   %view_50 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_16, [8, 256, 64]), kwargs = {})
#   %mul_25 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_50, %mul_20), kwargs = {})
#   %sum_5 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_25, [0, 1], True), kwargs = {})
#   return %buf6
triton_red_fused_mul_sum_view_2 = async_compile.triton('triton_red_fused_mul_sum_view_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 1024, 'r0_': 128},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_mul_sum_view_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1056768, 'r0_': 8192}}
)
@triton.jit
def triton_red_fused_mul_sum_view_2(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 1024
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 64)
    x1 = xindex // 64
    _tmp6 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp2 = tl.load(in_ptr2 + (r0_2 + 128*x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp3 = tmp1 * tmp2
        tmp4 = tmp0 * tmp3
        tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
        tmp7 = _tmp6 + tmp5
        _tmp6 = tl.where(r0_mask & xmask, tmp7, _tmp6)
    tmp6 = tl.sum(_tmp6, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp6, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/zz/czzkqjkajqohf2ha6so7dmpy3zmonp5nctmfvlwqxa2zvm3737gq.py
# Topologically Sorted Source Nodes: [hidden_states_21, view_50, mul_25, sum_5], Original ATen: [aten.mul, aten.view, aten.sum]
# Source node to ATen node mapping:
#   hidden_states_21 => mul_20
#   mul_25 => mul_25
#   sum_5 => sum_5
#   view_50 => view_50
# Graph fragment:
#   %buf6 : Tensor "f32[1, 1, 64, 16][1024, 1024, 1, 64]cuda:0" = PlaceHolder[target=buf6]
#   %mul_20 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_16, %rsqrt_4), kwargs = {})
#   %view_50 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_16, [8, 256, 64]), kwargs = {})
#   %mul_25 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_50, %mul_20), kwargs = {})
#   %sum_5 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_25, [0, 1], True), kwargs = {})
#   return %sum_5
triton_per_fused_mul_sum_view_3 = async_compile.triton('triton_per_fused_mul_sum_view_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 16},
    reduction_hint=ReductionHint.OUTER_TINY,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_mul_sum_view_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 4608, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_mul_sum_view_3(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
    r0_numel = 16
    R0_BLOCK: tl.constexpr = 16
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 64*r0_1), xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/bw/cbwovnpzjmnt5xmidmiqcsxz2pjbps4kcmb5emdwzxsszw3jlp6n.py
# Topologically Sorted Source Nodes: [view_50, mul_24, mul_26, mul_27, sum_6, pow_6, mul_28, mul_29, expand_11, div_4, pow_7, mul_30, mul_31, add_18], Original ATen: [aten.view, aten.mul, aten.sum, aten.pow, aten.expand, aten.div, aten.add]
# Source node to ATen node mapping:
#   add_18 => add_18
#   div_4 => div_4
#   expand_11 => expand_11
#   mul_24 => mul_24
#   mul_26 => mul_26
#   mul_27 => mul_27
#   mul_28 => mul_28
#   mul_29 => mul_29
#   mul_30 => mul_30
#   mul_31 => mul_31
#   pow_6 => pow_6
#   pow_7 => pow_7
#   sum_6 => sum_6
#   view_50 => view_50
# Graph fragment:
#   %mm_16 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_16]
#   %primals_22 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_22]
#   %add_16 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_16]
#   %rsqrt_4 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=rsqrt_4]
#   %sum_6 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_6]
#   %view_50 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_16, [8, 256, 64]), kwargs = {})
#   %mul_24 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_50, %primals_22), kwargs = {})
#   %mul_26 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_24, %add_16), kwargs = {})
#   %mul_27 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_24, %rsqrt_4), kwargs = {})
#   %sum_6 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_26, [2], True), kwargs = {})
#   %pow_6 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%rsqrt_4, 3), kwargs = {})
#   %mul_28 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%sum_6, -0.5), kwargs = {})
#   %mul_29 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_28, %pow_6), kwargs = {})
#   %expand_11 : Tensor "f32[8, 256, 64][256, 1, 0]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%mul_29, [8, 256, 64]), kwargs = {})
#   %div_4 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Scalar](args = (%expand_11, 64), kwargs = {})
#   %pow_7 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%add_16, 1.0), kwargs = {})
#   %mul_30 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%pow_7, 2.0), kwargs = {})
#   %mul_31 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_4, %mul_30), kwargs = {})
#   %add_18 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_27, %mul_31), kwargs = {})
#   return %sum_6,%add_18
triton_per_fused_add_div_expand_mul_pow_sum_view_4 = async_compile.triton('triton_per_fused_add_div_expand_mul_pow_sum_view_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2048, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_div_expand_mul_pow_sum_view_4', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 8192, 'r0_': 2097408}}
)
@triton.jit
def triton_per_fused_add_div_expand_mul_pow_sum_view_4(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2048
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp1 = tl.load(in_ptr0 + (r0_1), None, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr1 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp9 = tl.load(in_ptr2 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 * tmp1
    tmp4 = tmp2 * tmp3
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp5, 0)
    tmp8 = tl.sum(tmp7, 1)[:, None].to(tl.float32)
    tmp10 = tmp2 * tmp9
    tmp11 = tl.full([1, 1], -0.5, tl.float32)
    tmp12 = tmp8 * tmp11
    tmp13 = tmp9 * tmp9
    tmp14 = tmp13 * tmp9
    tmp15 = tmp12 * tmp14
    tmp16 = tl.full([1, 1], 0.015625, tl.float32)
    tmp17 = tmp15 * tmp16
    tmp18 = tl.full([1, 1], 2.0, tl.float32)
    tmp19 = tmp3 * tmp18
    tmp20 = tmp17 * tmp19
    tmp21 = tmp10 + tmp20
    tl.store(in_out_ptr0 + (r0_1 + 64*x0), tmp21, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/x7/cx7weabjevwg7km7tlv4pph55uhjqinkoolpkj2zc5ehzw2zrbkq.py
# Topologically Sorted Source Nodes: [attn_output_7, hidden_states_15, hidden_states_17, hidden_states_18], Original ATen: [aten._unsafe_view, aten.add, aten.mul]
# Source node to ATen node mapping:
#   attn_output_7 => view_37
#   hidden_states_15 => add_13
#   hidden_states_17 => mul_17
#   hidden_states_18 => mul_18
# Graph fragment:
#   %primals_18 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_18]
#   %add_9 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_9]
#   %mm_10 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_10]
#   %rsqrt_3 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=rsqrt_3]
#   %view_37 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_10, [8, 256, 64]), kwargs = {})
#   %add_13 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_9, %view_37), kwargs = {})
#   %mul_17 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_13, %rsqrt_3), kwargs = {})
#   %mul_18 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%primals_18, %mul_17), kwargs = {})
#   return %mul_18
triton_poi_fused__unsafe_view_add_mul_5 = async_compile.triton('triton_poi_fused__unsafe_view_add_mul_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 131072}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__unsafe_view_add_mul_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 2097408}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__unsafe_view_add_mul_5(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 131072
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 64)
    x2 = xindex
    x1 = xindex // 64
    tmp0 = tl.load(in_ptr0 + (x0), None, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (x2), None)
    tmp2 = tl.load(in_ptr2 + (x2), None)
    tmp4 = tl.load(in_ptr3 + (x1), None, eviction_policy='evict_last')
    tmp3 = tmp1 + tmp2
    tmp5 = tmp3 * tmp4
    tmp6 = tmp0 * tmp5
    tl.store(out_ptr0 + (x2), tmp6, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/3c/c3cvg5u67zapglyiop2b2353wtx5as3mbvitiljpjxvcbzxvtclv.py
# Topologically Sorted Source Nodes: [linear_11, silu_1, linear_12, mul_19, view_53, mul_32, mul_33, neg_7, exp_4, add_19, reciprocal, mul_34, mul_35, sub_3, mul_36, add_20, mul_37], Original ATen: [aten._unsafe_view, aten.silu, aten.mul, aten.view, aten.silu_backward]
# Source node to ATen node mapping:
#   add_19 => add_19
#   add_20 => add_20
#   exp_4 => exp_4
#   linear_11 => view_39
#   linear_12 => view_41
#   mul_19 => mul_19
#   mul_32 => mul_32
#   mul_33 => mul_33
#   mul_34 => mul_34
#   mul_35 => mul_35
#   mul_36 => mul_36
#   mul_37 => mul_37
#   neg_7 => neg_7
#   reciprocal => reciprocal
#   silu_1 => add_15, div_1, exp_1, neg_5
#   sub_3 => sub_3
#   view_53 => view_53
# Graph fragment:
#   %mm_11 : Tensor "f32[2048, 128][128, 1]cuda:0" = PlaceHolder[target=mm_11]
#   %mm_12 : Tensor "f32[2048, 128][128, 1]cuda:0" = PlaceHolder[target=mm_12]
#   %mm_18 : Tensor "f32[2048, 128][128, 1]cuda:0" = PlaceHolder[target=mm_18]
#   %view_39 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_11, [8, 256, 128]), kwargs = {})
#   %neg_5 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%view_39,), kwargs = {})
#   %exp_1 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_5,), kwargs = {})
#   %add_15 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_1, 1), kwargs = {})
#   %div_1 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.div.Tensor](args = (%view_39, %add_15), kwargs = {})
#   %view_41 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_12, [8, 256, 128]), kwargs = {})
#   %mul_19 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_1, %view_41), kwargs = {})
#   %view_53 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_18, [8, 256, 128]), kwargs = {})
#   %mul_32 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_53, %div_1), kwargs = {})
#   %mul_33 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_53, %view_41), kwargs = {})
#   %neg_7 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%view_39,), kwargs = {})
#   %exp_4 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_7,), kwargs = {})
#   %add_19 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_4, 1), kwargs = {})
#   %reciprocal : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reciprocal.default](args = (%add_19,), kwargs = {})
#   %mul_34 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%reciprocal, 1), kwargs = {})
#   %mul_35 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_33, %mul_34), kwargs = {})
#   %sub_3 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (1, %mul_34), kwargs = {})
#   %mul_36 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_39, %sub_3), kwargs = {})
#   %add_20 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_36, 1), kwargs = {})
#   %mul_37 : Tensor "f32[8, 256, 128][32768, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_35, %add_20), kwargs = {})
#   return %mul_19,%mul_32,%mul_37
triton_poi_fused__unsafe_view_mul_silu_silu_backward_view_6 = async_compile.triton('triton_poi_fused__unsafe_view_mul_silu_silu_backward_view_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 262144}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__unsafe_view_mul_silu_silu_backward_view_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 3, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 9437184}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__unsafe_view_mul_silu_silu_backward_view_6(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr2, xnumel, XBLOCK : tl.constexpr):
    xnumel = 262144
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None)
    tmp6 = tl.load(in_ptr1 + (x0), None)
    tmp8 = tl.load(in_ptr2 + (x0), None)
    tmp1 = -tmp0
    tmp2 = libdevice.exp(tmp1)
    tmp3 = tl.full([1], 1.0, tl.float32)
    tmp4 = tmp2 + tmp3
    tmp5 = (tmp0 / tmp4)
    tmp7 = tmp5 * tmp6
    tmp9 = tmp8 * tmp5
    tmp10 = tmp8 * tmp6
    tmp11 = tl.full([1], 1, tl.int32)
    tmp12 = (tmp11 / tmp4)
    tmp13 = tmp12 * tmp3
    tmp14 = tmp10 * tmp13
    tmp15 = tmp3 - tmp13
    tmp16 = tmp0 * tmp15
    tmp17 = tmp16 + tmp3
    tmp18 = tmp14 * tmp17
    tl.store(out_ptr0 + (x0), tmp7, None)
    tl.store(out_ptr1 + (x0), tmp9, None)
    tl.store(out_ptr2 + (x0), tmp18, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/42/c42cexldf5foqvabzr6co2xifpcrxjs3x4uc6z4sayqzpdhvder6.py
# Topologically Sorted Source Nodes: [attn_output_7, hidden_states_15, view_55, view_57, add_21, mul_38, mul_40, mul_41, sum_8, add_22, pow_8, mul_42, mul_43, expand_12, div_5, pow_9, mul_44, mul_45, add_23], Original ATen: [aten._unsafe_view, aten.add, aten.view, aten.mul, aten.sum, aten.pow, aten.expand, aten.div]
# Source node to ATen node mapping:
#   add_21 => add_21
#   add_22 => add_22
#   add_23 => add_23
#   attn_output_7 => view_37
#   div_5 => div_5
#   expand_12 => expand_12
#   hidden_states_15 => add_13
#   mul_38 => mul_38
#   mul_40 => mul_40
#   mul_41 => mul_41
#   mul_42 => mul_42
#   mul_43 => mul_43
#   mul_44 => mul_44
#   mul_45 => mul_45
#   pow_8 => pow_8
#   pow_9 => pow_9
#   sum_8 => sum_8
#   view_55 => view_55
#   view_57 => view_57
# Graph fragment:
#   %mm_20 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_20]
#   %mm_22 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_22]
#   %primals_18 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_18]
#   %add_9 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_9]
#   %mm_10 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_10]
#   %add_18 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_18]
#   %rsqrt_3 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=rsqrt_3]
#   %sum_8 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_8]
#   %view_37 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_10, [8, 256, 64]), kwargs = {})
#   %add_13 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_9, %view_37), kwargs = {})
#   %view_55 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_20, [8, 256, 64]), kwargs = {})
#   %view_57 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_22, [8, 256, 64]), kwargs = {})
#   %add_21 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_55, %view_57), kwargs = {})
#   %mul_38 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_21, %primals_18), kwargs = {})
#   %mul_40 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_38, %add_13), kwargs = {})
#   %mul_41 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_38, %rsqrt_3), kwargs = {})
#   %sum_8 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_40, [2], True), kwargs = {})
#   %add_22 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_18, %mul_41), kwargs = {})
#   %pow_8 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%rsqrt_3, 3), kwargs = {})
#   %mul_42 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%sum_8, -0.5), kwargs = {})
#   %mul_43 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_42, %pow_8), kwargs = {})
#   %expand_12 : Tensor "f32[8, 256, 64][256, 1, 0]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%mul_43, [8, 256, 64]), kwargs = {})
#   %div_5 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Scalar](args = (%expand_12, 64), kwargs = {})
#   %pow_9 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%add_13, 1.0), kwargs = {})
#   %mul_44 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%pow_9, 2.0), kwargs = {})
#   %mul_45 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_5, %mul_44), kwargs = {})
#   %add_23 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_22, %mul_45), kwargs = {})
#   return %sum_8,%add_23
triton_per_fused__unsafe_view_add_div_expand_mul_pow_sum_view_7 = async_compile.triton('triton_per_fused__unsafe_view_add_div_expand_mul_pow_sum_view_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2048, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__unsafe_view_add_div_expand_mul_pow_sum_view_7', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 7, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 8192, 'r0_': 3670272}}
)
@triton.jit
def triton_per_fused__unsafe_view_add_div_expand_mul_pow_sum_view_7(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2048
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp3 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr3 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp6 = tl.load(in_ptr4 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp13 = tl.load(in_out_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp14 = tl.load(in_ptr5 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 * tmp3
    tmp7 = tmp5 + tmp6
    tmp8 = tmp4 * tmp7
    tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
    tmp11 = tl.where(xmask, tmp9, 0)
    tmp12 = tl.sum(tmp11, 1)[:, None].to(tl.float32)
    tmp15 = tmp4 * tmp14
    tmp16 = tmp13 + tmp15
    tmp17 = tl.full([1, 1], -0.5, tl.float32)
    tmp18 = tmp12 * tmp17
    tmp19 = tmp14 * tmp14
    tmp20 = tmp19 * tmp14
    tmp21 = tmp18 * tmp20
    tmp22 = tl.full([1, 1], 0.015625, tl.float32)
    tmp23 = tmp21 * tmp22
    tmp24 = tl.full([1, 1], 2.0, tl.float32)
    tmp25 = tmp7 * tmp24
    tmp26 = tmp23 * tmp25
    tmp27 = tmp16 + tmp26
    tl.store(in_out_ptr0 + (r0_1 + 64*x0), tmp27, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/5d/c5doraytkfhxcljl5ozricncg7znzuguxd62g4gzaekmisskqunp.py
# Topologically Sorted Source Nodes: [view_60, view_61, permute_44, arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, linear_9, view_5, value_states_1, getitem_16, hidden_states_13, key_1, getitem_17, hidden_states_14, value_1, attn_output_4, _scaled_dot_product_efficient_attention_backward], Original ATen: [aten.view, aten.transpose, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten._unsafe_view, aten.clone, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
# Source node to ATen node mapping:
#   _scaled_dot_product_efficient_attention_backward => _scaled_dot_product_efficient_attention_backward
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => le
#   attention_mask_1 => expand
#   attn_output_4 => expand_10, full_default_2, full_default_3, where_1
#   getitem_16 => unsqueeze_17
#   getitem_17 => unsqueeze_18
#   hidden_states_13 => expand_8
#   hidden_states_14 => expand_9
#   key_1 => clone_8, view_33
#   kv_arange => add_2
#   kv_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   linear_9 => view_31
#   permute_44 => permute_44
#   q_arange => add_1
#   q_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   value_1 => clone_9, view_34
#   value_states_1 => permute_17
#   view_5 => view_32
#   view_60 => view_60
#   view_61 => view_61
# Graph fragment:
#   %add_12 : Tensor "f32[8, 2, 256, 16][8192, 16, 32, 1]cuda:0" = PlaceHolder[target=add_12]
#   %view_60 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_24, [8, 256, 64]), kwargs = {})
#   %view_61 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_60, [8, 256, 4, 16]), kwargs = {})
#   %permute_44 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_61, [0, 2, 1, 3]), kwargs = {})
#   %iota_3 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (256,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_1 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 0), kwargs = {})
#   %iota_4 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (256,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_2 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_1 : Tensor "i64[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_1, 0), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[1, 1, 256][256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 1), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[1, 1, 256, 1][256, 256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 256][256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 1, 256][256, 256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 2), kwargs = {})
#   %le : Tensor "b8[1, 1, 256, 256][65536, 65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_6, %unsqueeze_3), kwargs = {})
#   %expand : Tensor "b8[8, 1, 256, 256][0, 65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%le, [8, -1, 256, 256]), kwargs = {})
#   %view_31 : Tensor "f32[8, 256, 32][8192, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_9, [8, 256, 32]), kwargs = {})
#   %view_32 : Tensor "f32[8, 256, 2, 16][8192, 32, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_31, [8, 256, -1, 16]), kwargs = {})
#   %permute_17 : Tensor "f32[8, 2, 256, 16][8192, 16, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_32, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_17 : Tensor "f32[8, 2, 1, 256, 16][8192, 16, 8192, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_12, 2), kwargs = {})
#   %expand_8 : Tensor "f32[8, 2, 2, 256, 16][8192, 16, 0, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_17, [8, 2, 2, 256, 16]), kwargs = {})
#   %clone_8 : Tensor "f32[8, 2, 2, 256, 16][16384, 8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_8,), kwargs = {memory_format: torch.contiguous_format})
#   %view_33 : Tensor "f32[8, 4, 256, 16][16384, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_8, [8, 4, 256, 16]), kwargs = {})
#   %unsqueeze_18 : Tensor "f32[8, 2, 1, 256, 16][8192, 16, 8192, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute_17, 2), kwargs = {})
#   %expand_9 : Tensor "f32[8, 2, 2, 256, 16][8192, 16, 0, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_18, [8, 2, 2, 256, 16]), kwargs = {})
#   %clone_9 : Tensor "f32[8, 2, 2, 256, 16][16384, 8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_9,), kwargs = {memory_format: torch.contiguous_format})
#   %view_34 : Tensor "f32[8, 4, 256, 16][16384, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_9, [8, 4, 256, 16]), kwargs = {})
#   %full_default_2 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_3 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_1 : Tensor "f32[8, 1, 256, 256][65536, 65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_3, %full_default_2), kwargs = {})
#   %expand_10 : Tensor "f32[8, 4, 256, 256][65536, 0, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_1, [8, 4, 256, 256]), kwargs = {})
#   %_scaled_dot_product_efficient_attention_backward : [num_users=3] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention_backward.default](args = (%permute_44, %add_11, %view_33, %view_34, %expand_10, %getitem_4, %getitem_5, %getitem_6, %getitem_7, 0.0, [True, True, True, False]), kwargs = {scale: 0.25})
#   return %buf29
triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_8 = async_compile.triton('triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_8', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 131072}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1310720}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_8(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 131072
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 16)
    x1 = ((xindex // 16) % 256)
    x2 = ((xindex // 4096) % 4)
    x3 = xindex // 16384
    x4 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 16*(x2 // 2) + 32*x1 + 8192*x3), None)
    tl.store(out_ptr0 + (x4), tmp0, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ub/cub6dnjenxtgocuoyq3w5wf23hdd7uxcfnkx3xpzofjqx6leem6p.py
# Topologically Sorted Source Nodes: [view_60, view_61, permute_44, arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, linear_9, view_5, value_states_1, getitem_16, hidden_states_13, key_1, getitem_17, hidden_states_14, value_1, attn_output_4, _scaled_dot_product_efficient_attention_backward], Original ATen: [aten.view, aten.transpose, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten._unsafe_view, aten.clone, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
# Source node to ATen node mapping:
#   _scaled_dot_product_efficient_attention_backward => _scaled_dot_product_efficient_attention_backward
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => le
#   attention_mask_1 => expand
#   attn_output_4 => expand_10, full_default_2, full_default_3, where_1
#   getitem_16 => unsqueeze_17
#   getitem_17 => unsqueeze_18
#   hidden_states_13 => expand_8
#   hidden_states_14 => expand_9
#   key_1 => clone_8, view_33
#   kv_arange => add_2
#   kv_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   linear_9 => view_31
#   permute_44 => permute_44
#   q_arange => add_1
#   q_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   value_1 => clone_9, view_34
#   value_states_1 => permute_17
#   view_5 => view_32
#   view_60 => view_60
#   view_61 => view_61
# Graph fragment:
#   %view_60 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_24, [8, 256, 64]), kwargs = {})
#   %view_61 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_60, [8, 256, 4, 16]), kwargs = {})
#   %permute_44 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_61, [0, 2, 1, 3]), kwargs = {})
#   %iota_3 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (256,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_1 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 0), kwargs = {})
#   %iota_4 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (256,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_2 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_1 : Tensor "i64[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_1, 0), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[1, 1, 256][256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 1), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[1, 1, 256, 1][256, 256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 256][256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 1, 256][256, 256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 2), kwargs = {})
#   %le : Tensor "b8[1, 1, 256, 256][65536, 65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_6, %unsqueeze_3), kwargs = {})
#   %expand : Tensor "b8[8, 1, 256, 256][0, 65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%le, [8, -1, 256, 256]), kwargs = {})
#   %view_31 : Tensor "f32[8, 256, 32][8192, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_9, [8, 256, 32]), kwargs = {})
#   %view_32 : Tensor "f32[8, 256, 2, 16][8192, 32, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_31, [8, 256, -1, 16]), kwargs = {})
#   %permute_17 : Tensor "f32[8, 2, 256, 16][8192, 16, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_32, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_17 : Tensor "f32[8, 2, 1, 256, 16][8192, 16, 8192, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_12, 2), kwargs = {})
#   %expand_8 : Tensor "f32[8, 2, 2, 256, 16][8192, 16, 0, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_17, [8, 2, 2, 256, 16]), kwargs = {})
#   %clone_8 : Tensor "f32[8, 2, 2, 256, 16][16384, 8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_8,), kwargs = {memory_format: torch.contiguous_format})
#   %view_33 : Tensor "f32[8, 4, 256, 16][16384, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_8, [8, 4, 256, 16]), kwargs = {})
#   %unsqueeze_18 : Tensor "f32[8, 2, 1, 256, 16][8192, 16, 8192, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute_17, 2), kwargs = {})
#   %expand_9 : Tensor "f32[8, 2, 2, 256, 16][8192, 16, 0, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_18, [8, 2, 2, 256, 16]), kwargs = {})
#   %clone_9 : Tensor "f32[8, 2, 2, 256, 16][16384, 8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_9,), kwargs = {memory_format: torch.contiguous_format})
#   %view_34 : Tensor "f32[8, 4, 256, 16][16384, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_9, [8, 4, 256, 16]), kwargs = {})
#   %full_default_2 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_3 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_1 : Tensor "f32[8, 1, 256, 256][65536, 65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_3, %full_default_2), kwargs = {})
#   %expand_10 : Tensor "f32[8, 4, 256, 256][65536, 0, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_1, [8, 4, 256, 256]), kwargs = {})
#   %_scaled_dot_product_efficient_attention_backward : [num_users=3] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention_backward.default](args = (%permute_44, %add_11, %view_33, %view_34, %expand_10, %getitem_4, %getitem_5, %getitem_6, %getitem_7, 0.0, [True, True, True, False]), kwargs = {scale: 0.25})
#   return %buf31
triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_9 = async_compile.triton('triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_9', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2097152}, 
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_9', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 16777216}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_9(out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 2097152
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 256)
    x1 = ((xindex // 256) % 256)
    x3 = xindex
    tmp0 = x0
    tmp1 = x1
    tmp2 = tmp0 <= tmp1
    tmp3 = tl.full([1], 0.0, tl.float32)
    tmp4 = tl.full([1], float("-inf"), tl.float32)
    tmp5 = tl.where(tmp2, tmp3, tmp4)
    tl.store(out_ptr0 + (x3), tmp5, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ch/cchl77tpthzwsvwuxf5jzfkf7nwcoofacltewbvrcc7pvo5p22du.py
# Topologically Sorted Source Nodes: [view_62, sum_9, squeeze_1, permute_45, clone_10], Original ATen: [aten.view, aten.sum, aten.squeeze, aten.transpose, aten.clone]
# Source node to ATen node mapping:
#   clone_10 => clone_10
#   permute_45 => permute_45
#   squeeze_1 => squeeze_1
#   sum_9 => sum_9
#   view_62 => view_62
# Graph fragment:
#   %getitem_10 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0" = PlaceHolder[target=getitem_10]
#   %view_62 : Tensor "f32[8, 2, 2, 256, 16][16384, 32, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_10, [8, 2, 2, 256, 16]), kwargs = {})
#   %sum_9 : Tensor "f32[8, 2, 1, 256, 16][8192, 4096, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_62, [2], True), kwargs = {})
#   %squeeze_1 : Tensor "f32[8, 2, 256, 16][8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%sum_9, 2), kwargs = {})
#   %permute_45 : Tensor "f32[8, 256, 2, 16][8192, 16, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%squeeze_1, [0, 2, 1, 3]), kwargs = {})
#   %clone_10 : Tensor "f32[8, 256, 2, 16][8192, 32, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_45,), kwargs = {memory_format: torch.contiguous_format})
#   return %clone_10
triton_poi_fused_clone_squeeze_sum_transpose_view_10 = async_compile.triton('triton_poi_fused_clone_squeeze_sum_transpose_view_10', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 65536}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_clone_squeeze_sum_transpose_view_10', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1048576}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_clone_squeeze_sum_transpose_view_10(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 65536
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 16)
    x1 = xindex // 16
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 32*x1), None)
    tmp1 = tl.load(in_ptr0 + (16 + x0 + 32*x1), None)
    tmp2 = tmp0 + tmp1
    tl.store(out_ptr0 + (x2), tmp2, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ni/cni7li5ajx6x76e7kqknfaigxdbd5ju6ngsc3qlvrkul4rmwkiac.py
# Topologically Sorted Source Nodes: [view_63, sum_10, squeeze_2, matmul, freqs, emb, sin, sin_1, sin_4, mul_46, slice_11, slice_12, neg_8, full_default_9, full_default_10, add_24, cos, cos_1, cos_4, mul_47, add_25, permute_50, clone_11], Original ATen: [aten.view, aten.sum, aten.squeeze, aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.unsqueeze, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.cos, aten.clone]
# Source node to ATen node mapping:
#   add_24 => add_24
#   add_25 => add_25
#   clone_11 => clone_11
#   cos => cos
#   cos_1 => mul
#   cos_4 => unsqueeze_15
#   emb => clone, expand_4, unsqueeze_10, view_3
#   freqs => permute
#   full_default_10 => full_default_10
#   full_default_9 => full_default_9
#   matmul => unsqueeze_default
#   mul_46 => mul_46
#   mul_47 => mul_47
#   neg_8 => neg_8
#   permute_50 => permute_50
#   sin => sin
#   sin_1 => mul_1
#   sin_4 => unsqueeze_16
#   slice_11 => slice_11
#   slice_12 => slice_12
#   squeeze_2 => squeeze_2
#   sum_10 => sum_10
#   view_63 => view_63
# Graph fragment:
#   %getitem_9 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0" = PlaceHolder[target=getitem_9]
#   %mm_default : Tensor "f32[8, 256][256, 1]cuda:0" = PlaceHolder[target=mm_default]
#   %view_63 : Tensor "f32[8, 2, 2, 256, 16][16384, 32, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_9, [8, 2, 2, 256, 16]), kwargs = {})
#   %sum_10 : Tensor "f32[8, 2, 1, 256, 16][8192, 4096, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_63, [2], True), kwargs = {})
#   %squeeze_2 : Tensor "f32[8, 2, 256, 16][8192, 4096, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.squeeze.dim](args = (%sum_10, 2), kwargs = {})
#   %unsqueeze_default : Tensor "f32[1, 8, 256][2048, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm_default, 0), kwargs = {})
#   %permute : Tensor "f32[1, 256, 8][2048, 1, 256]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%unsqueeze_default, [0, 2, 1]), kwargs = {})
#   %unsqueeze_10 : Tensor "f32[1, 256, 1, 8][2048, 1, 2048, 256]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute, 2), kwargs = {})
#   %expand_4 : Tensor "f32[1, 256, 2, 8][2048, 1, 0, 256]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_10, [1, 256, 2, 8]), kwargs = {})
#   %clone : Tensor "f32[1, 256, 2, 8][4096, 16, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_4,), kwargs = {memory_format: torch.contiguous_format})
#   %view_3 : Tensor "f32[1, 256, 16][4096, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%clone, [1, 256, 16]), kwargs = {})
#   %sin : Tensor "f32[1, 256, 16][4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sin.default](args = (%view_3,), kwargs = {})
#   %mul_1 : Tensor "f32[1, 256, 16][4096, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sin, 1.0), kwargs = {})
#   %unsqueeze_16 : Tensor "f32[1, 1, 256, 16][4096, 4096, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_1, 1), kwargs = {})
#   %mul_46 : Tensor "f32[8, 2, 256, 16][8192, 4096, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%squeeze_2, %unsqueeze_16), kwargs = {})
#   %slice_11 : Tensor "f32[8, 2, 256, 8][8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%mul_46, 3, 0, 8), kwargs = {})
#   %slice_12 : Tensor "f32[8, 2, 256, 8][8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%mul_46, 3, 8, 16), kwargs = {})
#   %neg_8 : Tensor "f32[8, 2, 256, 8][4096, 2048, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_11,), kwargs = {})
#   %full_default_9 : Tensor "f32[8, 2, 256, 16][8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([8, 2, 256, 16], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %slice_scatter_default : Tensor "f32[8, 2, 256, 16][8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice_scatter.default](args = (%full_default_9, %neg_8, 3, 8, 9223372036854775807), kwargs = {})
#   %full_default_10 : Tensor "f32[8, 2, 256, 16][8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([8, 2, 256, 16], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %slice_scatter_default_1 : Tensor "f32[8, 2, 256, 16][8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice_scatter.default](args = (%full_default_10, %slice_12, 3, 0, 8), kwargs = {})
#   %add_24 : Tensor "f32[8, 2, 256, 16][8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%slice_scatter_default, %slice_scatter_default_1), kwargs = {})
#   %cos : Tensor "f32[1, 256, 16][4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cos.default](args = (%view_3,), kwargs = {})
#   %mul : Tensor "f32[1, 256, 16][4096, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cos, 1.0), kwargs = {})
#   %unsqueeze_15 : Tensor "f32[1, 1, 256, 16][4096, 4096, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul, 1), kwargs = {})
#   %mul_47 : Tensor "f32[8, 2, 256, 16][8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%squeeze_2, %unsqueeze_15), kwargs = {})
#   %add_25 : Tensor "f32[8, 2, 256, 16][8192, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_24, %mul_47), kwargs = {})
#   %permute_50 : Tensor "f32[8, 256, 2, 16][8192, 16, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%add_25, [0, 2, 1, 3]), kwargs = {})
#   %clone_11 : Tensor "f32[8, 256, 2, 16][8192, 32, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_50,), kwargs = {memory_format: torch.contiguous_format})
#   return %clone_11
triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_11 = async_compile.triton('triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_11', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 65536}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_11', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1835008}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_11(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 65536
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 16)
    x4 = xindex // 16
    x2 = ((xindex // 32) % 256)
    x5 = xindex
    tmp29 = tl.load(in_ptr0 + (x0 + 32*x4), None)
    tmp30 = tl.load(in_ptr0 + (16 + x0 + 32*x4), None)
    tmp32 = tl.load(in_ptr1 + (x2 + 256*((x0 % 8))), None, eviction_policy='evict_last')
    tmp0 = x0
    tmp1 = tl.full([1], 8, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.load(in_ptr0 + ((-8) + x0 + 32*x4), tmp2, other=0.0)
    tmp4 = tl.load(in_ptr0 + (8 + x0 + 32*x4), tmp2, other=0.0)
    tmp5 = tmp3 + tmp4
    tmp6 = tl.load(in_ptr1 + (x2 + 256*((x0 % 8))), tmp2, eviction_policy='evict_last', other=0.0)
    tmp7 = tl_math.sin(tmp6)
    tmp8 = tl.full([1], 1.0, tl.float32)
    tmp9 = tmp7 * tmp8
    tmp10 = tmp5 * tmp9
    tmp11 = -tmp10
    tmp12 = tl.full(tmp11.shape, 0.0, tmp11.dtype)
    tmp13 = tl.where(tmp2, tmp11, tmp12)
    tmp14 = tl.full([1], 0.0, tl.float32)
    tmp15 = tl.where(tmp2, tmp13, tmp14)
    tmp16 = tmp0 < tmp1
    tmp17 = tl.load(in_ptr0 + (8 + x0 + 32*x4), tmp16, other=0.0)
    tmp18 = tl.load(in_ptr0 + (24 + x0 + 32*x4), tmp16, other=0.0)
    tmp19 = tmp17 + tmp18
    tmp20 = tl.load(in_ptr1 + (x2 + 256*((x0 % 8))), tmp16, eviction_policy='evict_last', other=0.0)
    tmp21 = tl_math.sin(tmp20)
    tmp22 = tl.full([1], 1.0, tl.float32)
    tmp23 = tmp21 * tmp22
    tmp24 = tmp19 * tmp23
    tmp25 = tl.full(tmp24.shape, 0.0, tmp24.dtype)
    tmp26 = tl.where(tmp16, tmp24, tmp25)
    tmp27 = tl.where(tmp16, tmp26, tmp14)
    tmp28 = tmp15 + tmp27
    tmp31 = tmp29 + tmp30
    tmp33 = tl_math.cos(tmp32)
    tmp34 = tl.full([1], 1.0, tl.float32)
    tmp35 = tmp33 * tmp34
    tmp36 = tmp31 * tmp35
    tmp37 = tmp28 + tmp36
    tl.store(out_ptr0 + (x5), tmp37, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/my/cmyxsy4zf5qkdm34nj4hpdyqbfwoo4dfz3upy7jfzen5pezripsf.py
# Topologically Sorted Source Nodes: [matmul, freqs, emb, sin, sin_1, sin_4, cos, cos_1, cos_4, mul_48, slice_13, slice_14, neg_9, full_default_11, full_default_12, add_26, mul_49, add_27, permute_55, clone_12], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.unsqueeze, aten.cos, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.clone]
# Source node to ATen node mapping:
#   add_26 => add_26
#   add_27 => add_27
#   clone_12 => clone_12
#   cos => cos
#   cos_1 => mul
#   cos_4 => unsqueeze_15
#   emb => clone, expand_4, unsqueeze_10, view_3
#   freqs => permute
#   full_default_11 => full_default_11
#   full_default_12 => full_default_12
#   matmul => unsqueeze_default
#   mul_48 => mul_48
#   mul_49 => mul_49
#   neg_9 => neg_9
#   permute_55 => permute_55
#   sin => sin
#   sin_1 => mul_1
#   sin_4 => unsqueeze_16
#   slice_13 => slice_13
#   slice_14 => slice_14
# Graph fragment:
#   %getitem_8 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0" = PlaceHolder[target=getitem_8]
#   %mm_default : Tensor "f32[8, 256][256, 1]cuda:0" = PlaceHolder[target=mm_default]
#   %unsqueeze_default : Tensor "f32[1, 8, 256][2048, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm_default, 0), kwargs = {})
#   %permute : Tensor "f32[1, 256, 8][2048, 1, 256]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%unsqueeze_default, [0, 2, 1]), kwargs = {})
#   %unsqueeze_10 : Tensor "f32[1, 256, 1, 8][2048, 1, 2048, 256]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute, 2), kwargs = {})
#   %expand_4 : Tensor "f32[1, 256, 2, 8][2048, 1, 0, 256]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_10, [1, 256, 2, 8]), kwargs = {})
#   %clone : Tensor "f32[1, 256, 2, 8][4096, 16, 8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_4,), kwargs = {memory_format: torch.contiguous_format})
#   %view_3 : Tensor "f32[1, 256, 16][4096, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%clone, [1, 256, 16]), kwargs = {})
#   %sin : Tensor "f32[1, 256, 16][4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sin.default](args = (%view_3,), kwargs = {})
#   %mul_1 : Tensor "f32[1, 256, 16][4096, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sin, 1.0), kwargs = {})
#   %unsqueeze_16 : Tensor "f32[1, 1, 256, 16][4096, 4096, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul_1, 1), kwargs = {})
#   %cos : Tensor "f32[1, 256, 16][4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cos.default](args = (%view_3,), kwargs = {})
#   %mul : Tensor "f32[1, 256, 16][4096, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cos, 1.0), kwargs = {})
#   %unsqueeze_15 : Tensor "f32[1, 1, 256, 16][4096, 4096, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul, 1), kwargs = {})
#   %mul_48 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%getitem_8, %unsqueeze_16), kwargs = {})
#   %slice_13 : Tensor "f32[8, 4, 256, 8][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%mul_48, 3, 0, 8), kwargs = {})
#   %slice_14 : Tensor "f32[8, 4, 256, 8][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%mul_48, 3, 8, 16), kwargs = {})
#   %neg_9 : Tensor "f32[8, 4, 256, 8][8192, 8, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_13,), kwargs = {})
#   %full_default_11 : Tensor "f32[8, 4, 256, 16][16384, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([8, 4, 256, 16], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %slice_scatter_default_2 : Tensor "f32[8, 4, 256, 16][16384, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice_scatter.default](args = (%full_default_11, %neg_9, 3, 8, 9223372036854775807), kwargs = {})
#   %full_default_12 : Tensor "f32[8, 4, 256, 16][16384, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([8, 4, 256, 16], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %slice_scatter_default_3 : Tensor "f32[8, 4, 256, 16][16384, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice_scatter.default](args = (%full_default_12, %slice_14, 3, 0, 8), kwargs = {})
#   %add_26 : Tensor "f32[8, 4, 256, 16][16384, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%slice_scatter_default_2, %slice_scatter_default_3), kwargs = {})
#   %mul_49 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%getitem_8, %unsqueeze_15), kwargs = {})
#   %add_27 : Tensor "f32[8, 4, 256, 16][16384, 4096, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_26, %mul_49), kwargs = {})
#   %permute_55 : Tensor "f32[8, 256, 4, 16][16384, 16, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%add_27, [0, 2, 1, 3]), kwargs = {})
#   %clone_12 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_55,), kwargs = {memory_format: torch.contiguous_format})
#   return %clone_12
triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_transpose_unsqueeze_12 = async_compile.triton('triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_transpose_unsqueeze_12', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 131072}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_transpose_unsqueeze_12', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 2621440}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_transpose_unsqueeze_12(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 131072
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 16)
    x4 = xindex
    x2 = ((xindex // 64) % 256)
    tmp25 = tl.load(in_ptr0 + (x4), None)
    tmp26 = tl.load(in_ptr1 + (x2 + 256*((x0 % 8))), None, eviction_policy='evict_last')
    tmp0 = x0
    tmp1 = tl.full([1], 8, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.load(in_ptr0 + ((-8) + x4), tmp2, other=0.0)
    tmp4 = tl.load(in_ptr1 + (x2 + 256*((x0 % 8))), tmp2, eviction_policy='evict_last', other=0.0)
    tmp5 = tl_math.sin(tmp4)
    tmp6 = tl.full([1], 1.0, tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tmp3 * tmp7
    tmp9 = -tmp8
    tmp10 = tl.full(tmp9.shape, 0.0, tmp9.dtype)
    tmp11 = tl.where(tmp2, tmp9, tmp10)
    tmp12 = tl.full([1], 0.0, tl.float32)
    tmp13 = tl.where(tmp2, tmp11, tmp12)
    tmp14 = tmp0 < tmp1
    tmp15 = tl.load(in_ptr0 + (8 + x4), tmp14, other=0.0)
    tmp16 = tl.load(in_ptr1 + (x2 + 256*((x0 % 8))), tmp14, eviction_policy='evict_last', other=0.0)
    tmp17 = tl_math.sin(tmp16)
    tmp18 = tl.full([1], 1.0, tl.float32)
    tmp19 = tmp17 * tmp18
    tmp20 = tmp15 * tmp19
    tmp21 = tl.full(tmp20.shape, 0.0, tmp20.dtype)
    tmp22 = tl.where(tmp14, tmp20, tmp21)
    tmp23 = tl.where(tmp14, tmp22, tmp12)
    tmp24 = tmp13 + tmp23
    tmp27 = tl_math.cos(tmp26)
    tmp28 = tl.full([1], 1.0, tl.float32)
    tmp29 = tmp27 * tmp28
    tmp30 = tmp25 * tmp29
    tmp31 = tmp24 + tmp30
    tl.store(out_ptr0 + (x4), tmp31, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ft/cftylfvwqmtgebu36wkbaarzbq4shby5kq4s4n2vxzqklpfuoka6.py
# Topologically Sorted Source Nodes: [attn_output_7, hidden_states_15, hidden_states_17, view_55, view_57, add_21, mul_39, sum_7, hidden_states_11, view_66, view_69, add_28, view_72, add_29, mul_51, sum_11], Original ATen: [aten._unsafe_view, aten.add, aten.mul, aten.view, aten.sum]
# Source node to ATen node mapping:
#   add_21 => add_21
#   add_28 => add_28
#   add_29 => add_29
#   attn_output_7 => view_37
#   hidden_states_11 => mul_11
#   hidden_states_15 => add_13
#   hidden_states_17 => mul_17
#   mul_39 => mul_39
#   mul_51 => mul_51
#   sum_11 => sum_11
#   sum_7 => sum_7
#   view_55 => view_55
#   view_57 => view_57
#   view_66 => view_66
#   view_69 => view_69
#   view_72 => view_72
# Graph fragment:
#   %mm_20 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_20]
#   %mm_22 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_22]
#   %add_9 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_9]
#   %mm_10 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_10]
#   %rsqrt_3 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=rsqrt_3]
#   %mm_26 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_26]
#   %mm_28 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_28]
#   %mm_30 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_30]
#   %rsqrt_2 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=rsqrt_2]
#   %view_37 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_10, [8, 256, 64]), kwargs = {})
#   %add_13 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_9, %view_37), kwargs = {})
#   %mul_17 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_13, %rsqrt_3), kwargs = {})
#   %view_55 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_20, [8, 256, 64]), kwargs = {})
#   %view_57 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_22, [8, 256, 64]), kwargs = {})
#   %add_21 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_55, %view_57), kwargs = {})
#   %mul_39 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_21, %mul_17), kwargs = {})
#   %sum_7 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_39, [0, 1], True), kwargs = {})
#   %mul_11 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_9, %rsqrt_2), kwargs = {})
#   %view_66 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_26, [8, 256, 64]), kwargs = {})
#   %view_69 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_28, [8, 256, 64]), kwargs = {})
#   %add_28 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_66, %view_69), kwargs = {})
#   %view_72 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_30, [8, 256, 64]), kwargs = {})
#   %add_29 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_28, %view_72), kwargs = {})
#   %mul_51 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_29, %mul_11), kwargs = {})
#   %sum_11 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_51, [0, 1], True), kwargs = {})
#   return %buf23,%buf46
triton_red_fused__unsafe_view_add_mul_sum_view_13 = async_compile.triton('triton_red_fused__unsafe_view_add_mul_sum_view_13', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 1024, 'r0_': 128},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__unsafe_view_add_mul_sum_view_13', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 2, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 3686400, 'r0_': 16384}}
)
@triton.jit
def triton_red_fused__unsafe_view_add_mul_sum_view_13(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 1024
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 64)
    x1 = xindex // 64
    _tmp10 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    _tmp21 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp3 = tl.load(in_ptr2 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp4 = tl.load(in_ptr3 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp6 = tl.load(in_ptr4 + (r0_2 + 128*x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp12 = tl.load(in_ptr5 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp13 = tl.load(in_ptr6 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp15 = tl.load(in_ptr7 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp17 = tl.load(in_ptr8 + (r0_2 + 128*x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp5 = tmp3 + tmp4
        tmp7 = tmp5 * tmp6
        tmp8 = tmp2 * tmp7
        tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
        tmp11 = _tmp10 + tmp9
        _tmp10 = tl.where(r0_mask & xmask, tmp11, _tmp10)
        tmp14 = tmp12 + tmp13
        tmp16 = tmp14 + tmp15
        tmp18 = tmp3 * tmp17
        tmp19 = tmp16 * tmp18
        tmp20 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
        tmp22 = _tmp21 + tmp20
        _tmp21 = tl.where(r0_mask & xmask, tmp22, _tmp21)
    tmp10 = tl.sum(_tmp10, 1)[:, None]
    tmp21 = tl.sum(_tmp21, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp10, xmask)
    tl.store(out_ptr1 + (x3), tmp21, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/3l/c3lvubqai2dasy5wqmx4hes3migq7suxb2za33lhtwsjwviuk3uw.py
# Topologically Sorted Source Nodes: [hidden_states_11, hidden_states_12, view_66, view_69, add_28, view_72, add_29, mul_50, mul_52, mul_53, sum_12, add_30, pow_10, mul_54, mul_55, expand_13, div_6, pow_11, mul_56, mul_57, add_31], Original ATen: [aten.mul, aten.view, aten.add, aten.sum, aten.pow, aten.expand, aten.div]
# Source node to ATen node mapping:
#   add_28 => add_28
#   add_29 => add_29
#   add_30 => add_30
#   add_31 => add_31
#   div_6 => div_6
#   expand_13 => expand_13
#   hidden_states_11 => mul_11
#   hidden_states_12 => mul_12
#   mul_50 => mul_50
#   mul_52 => mul_52
#   mul_53 => mul_53
#   mul_54 => mul_54
#   mul_55 => mul_55
#   mul_56 => mul_56
#   mul_57 => mul_57
#   pow_10 => pow_10
#   pow_11 => pow_11
#   sum_12 => sum_12
#   view_66 => view_66
#   view_69 => view_69
#   view_72 => view_72
# Graph fragment:
#   %mm_26 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_26]
#   %mm_28 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_28]
#   %mm_30 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_30]
#   %primals_13 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_13]
#   %add_9 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_9]
#   %rsqrt_2 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=rsqrt_2]
#   %add_23 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_23]
#   %sum_12 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_12]
#   %mul_11 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_9, %rsqrt_2), kwargs = {})
#   %mul_12 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%primals_13, %mul_11), kwargs = {})
#   %view_66 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_26, [8, 256, 64]), kwargs = {})
#   %view_69 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_28, [8, 256, 64]), kwargs = {})
#   %add_28 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_66, %view_69), kwargs = {})
#   %view_72 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_30, [8, 256, 64]), kwargs = {})
#   %add_29 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_28, %view_72), kwargs = {})
#   %mul_50 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_29, %primals_13), kwargs = {})
#   %mul_52 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_50, %add_9), kwargs = {})
#   %mul_53 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_50, %rsqrt_2), kwargs = {})
#   %sum_12 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_52, [2], True), kwargs = {})
#   %add_30 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_23, %mul_53), kwargs = {})
#   %pow_10 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%rsqrt_2, 3), kwargs = {})
#   %mul_54 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%sum_12, -0.5), kwargs = {})
#   %mul_55 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_54, %pow_10), kwargs = {})
#   %expand_13 : Tensor "f32[8, 256, 64][256, 1, 0]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%mul_55, [8, 256, 64]), kwargs = {})
#   %div_6 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Scalar](args = (%expand_13, 64), kwargs = {})
#   %pow_11 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%add_9, 1.0), kwargs = {})
#   %mul_56 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%pow_11, 2.0), kwargs = {})
#   %mul_57 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_6, %mul_56), kwargs = {})
#   %add_31 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_30, %mul_57), kwargs = {})
#   return %sum_12,%mul_12,%add_31
triton_per_fused_add_div_expand_mul_pow_sum_view_14 = async_compile.triton('triton_per_fused_add_div_expand_mul_pow_sum_view_14', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2048, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_div_expand_mul_pow_sum_view_14', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 7, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 8192, 'r0_': 4718848}}
)
@triton.jit
def triton_per_fused_add_div_expand_mul_pow_sum_view_14(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2048
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp3 = tl.load(in_ptr2 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp5 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr4 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp13 = tl.load(in_ptr5 + (x0), xmask, eviction_policy='evict_last')
    tmp16 = tl.load(in_out_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp6 = tmp4 * tmp5
    tmp8 = tmp6 * tmp7
    tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
    tmp11 = tl.where(xmask, tmp9, 0)
    tmp12 = tl.sum(tmp11, 1)[:, None].to(tl.float32)
    tmp14 = tmp7 * tmp13
    tmp15 = tmp5 * tmp14
    tmp17 = tmp6 * tmp13
    tmp18 = tmp16 + tmp17
    tmp19 = tl.full([1, 1], -0.5, tl.float32)
    tmp20 = tmp12 * tmp19
    tmp21 = tmp13 * tmp13
    tmp22 = tmp21 * tmp13
    tmp23 = tmp20 * tmp22
    tmp24 = tl.full([1, 1], 0.015625, tl.float32)
    tmp25 = tmp23 * tmp24
    tmp26 = tl.full([1, 1], 2.0, tl.float32)
    tmp27 = tmp7 * tmp26
    tmp28 = tmp25 * tmp27
    tmp29 = tmp18 + tmp28
    tl.store(out_ptr1 + (r0_1 + 64*x0), tmp15, xmask)
    tl.store(in_out_ptr0 + (r0_1 + 64*x0), tmp29, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ew/cewimufq4dlg3i26dhcgbropcokqmhao7z4prxx6p3hezoqpdfdm.py
# Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, hidden_states_7, hidden_states_8], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten.mul]
# Source node to ATen node mapping:
#   attn_output_3 => view_17
#   hidden_states_5 => add_6
#   hidden_states_7 => mul_8
#   hidden_states_8 => mul_9
#   inputs_embeds => embedding
# Graph fragment:
#   %primals_9 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_9]
#   %primals_1 : Tensor "i64[8, 256][256, 1]cuda:0" = PlaceHolder[target=primals_1]
#   %primals_2 : Tensor "f32[512, 64][64, 1]cuda:0" = PlaceHolder[target=primals_2]
#   %mm_3 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %rsqrt_1 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=rsqrt_1]
#   %embedding : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.embedding.default](args = (%primals_2, %primals_1), kwargs = {})
#   %view_17 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_3, [8, 256, 64]), kwargs = {})
#   %add_6 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %view_17), kwargs = {})
#   %mul_8 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_6, %rsqrt_1), kwargs = {})
#   %mul_9 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%primals_9, %mul_8), kwargs = {})
#   return %mul_9
triton_poi_fused__unsafe_view_add_embedding_mul_15 = async_compile.triton('triton_poi_fused__unsafe_view_add_embedding_mul_15', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 2048, 'x': 64}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*i64', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'out_ptr0': '*fp32', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__unsafe_view_add_embedding_mul_15', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 24576, 'x': 1573120}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__unsafe_view_add_embedding_mul_15(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 2048
    xnumel = 64
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (x1), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (y0), None, eviction_policy='evict_last')
    tmp8 = tl.load(in_ptr3 + (x1 + 64*y0), xmask, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr4 + (y0), None, eviction_policy='evict_last')
    tmp2 = tl.full([1, 1], 512, tl.int32)
    tmp3 = tmp1 + tmp2
    tmp4 = tmp1 < 0
    tmp5 = tl.where(tmp4, tmp3, tmp1)
    tl.device_assert((0 <= tmp5) & (tmp5 < 512), "index out of bounds: 0 <= tmp5 < 512")
    tmp7 = tl.load(in_ptr2 + (x1 + 64*tmp5), xmask)
    tmp9 = tmp7 + tmp8
    tmp11 = tmp9 * tmp10
    tmp12 = tmp0 * tmp11
    tl.store(out_ptr0 + (x1 + 64*y0), tmp12, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/2h/c2h7ihpzahyj3gjeiofu2csqdjcl5fgfz3ckfuvhdpkunzpshjok.py
# Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, view_77, view_79, add_34, mul_64, mul_66, mul_67, sum_14, add_35, pow_12, mul_68, mul_69, expand_14, div_7, pow_13, mul_70, mul_71, add_36], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten.view, aten.mul, aten.sum, aten.pow, aten.expand, aten.div]
# Source node to ATen node mapping:
#   add_34 => add_34
#   add_35 => add_35
#   add_36 => add_36
#   attn_output_3 => view_17
#   div_7 => div_7
#   expand_14 => expand_14
#   hidden_states_5 => add_6
#   inputs_embeds => embedding
#   mul_64 => mul_64
#   mul_66 => mul_66
#   mul_67 => mul_67
#   mul_68 => mul_68
#   mul_69 => mul_69
#   mul_70 => mul_70
#   mul_71 => mul_71
#   pow_12 => pow_12
#   pow_13 => pow_13
#   sum_14 => sum_14
#   view_77 => view_77
#   view_79 => view_79
# Graph fragment:
#   %mm_34 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_34]
#   %mm_36 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_36]
#   %primals_9 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_9]
#   %primals_1 : Tensor "i64[8, 256][256, 1]cuda:0" = PlaceHolder[target=primals_1]
#   %primals_2 : Tensor "f32[512, 64][64, 1]cuda:0" = PlaceHolder[target=primals_2]
#   %mm_3 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %add_31 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_31]
#   %rsqrt_1 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=rsqrt_1]
#   %sum_14 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_14]
#   %embedding : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.embedding.default](args = (%primals_2, %primals_1), kwargs = {})
#   %view_17 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_3, [8, 256, 64]), kwargs = {})
#   %add_6 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %view_17), kwargs = {})
#   %view_77 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_34, [8, 256, 64]), kwargs = {})
#   %view_79 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_36, [8, 256, 64]), kwargs = {})
#   %add_34 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_77, %view_79), kwargs = {})
#   %mul_64 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_34, %primals_9), kwargs = {})
#   %mul_66 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_64, %add_6), kwargs = {})
#   %mul_67 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_64, %rsqrt_1), kwargs = {})
#   %sum_14 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_66, [2], True), kwargs = {})
#   %add_35 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_31, %mul_67), kwargs = {})
#   %pow_12 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%rsqrt_1, 3), kwargs = {})
#   %mul_68 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%sum_14, -0.5), kwargs = {})
#   %mul_69 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_68, %pow_12), kwargs = {})
#   %expand_14 : Tensor "f32[8, 256, 64][256, 1, 0]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%mul_69, [8, 256, 64]), kwargs = {})
#   %div_7 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Scalar](args = (%expand_14, 64), kwargs = {})
#   %pow_13 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%add_6, 1.0), kwargs = {})
#   %mul_70 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%pow_13, 2.0), kwargs = {})
#   %mul_71 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_7, %mul_70), kwargs = {})
#   %add_36 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_35, %mul_71), kwargs = {})
#   return %sum_14,%add_36
triton_per_fused__unsafe_view_add_div_embedding_expand_mul_pow_sum_view_16 = async_compile.triton('triton_per_fused__unsafe_view_add_div_embedding_expand_mul_pow_sum_view_16', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2048, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*i64', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__unsafe_view_add_div_embedding_expand_mul_pow_sum_view_16', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 7, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 24576, 'r0_': 3145984}}
)
@triton.jit
def triton_per_fused__unsafe_view_add_div_embedding_expand_mul_pow_sum_view_16(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2048
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp3 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr3 + (x0), xmask, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr5 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp19 = tl.load(in_out_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp20 = tl.load(in_ptr6 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 * tmp3
    tmp6 = tl.full([1, 1], 512, tl.int32)
    tmp7 = tmp5 + tmp6
    tmp8 = tmp5 < 0
    tmp9 = tl.where(tmp8, tmp7, tmp5)
    tl.device_assert(((0 <= tmp9) & (tmp9 < 512)) | ~(xmask), "index out of bounds: 0 <= tmp9 < 512")
    tmp11 = tl.load(in_ptr4 + (r0_1 + 64*tmp9), xmask, other=0.0)
    tmp13 = tmp11 + tmp12
    tmp14 = tmp4 * tmp13
    tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
    tmp17 = tl.where(xmask, tmp15, 0)
    tmp18 = tl.sum(tmp17, 1)[:, None].to(tl.float32)
    tmp21 = tmp4 * tmp20
    tmp22 = tmp19 + tmp21
    tmp23 = tl.full([1, 1], -0.5, tl.float32)
    tmp24 = tmp18 * tmp23
    tmp25 = tmp20 * tmp20
    tmp26 = tmp25 * tmp20
    tmp27 = tmp24 * tmp26
    tmp28 = tl.full([1, 1], 0.015625, tl.float32)
    tmp29 = tmp27 * tmp28
    tmp30 = tl.full([1, 1], 2.0, tl.float32)
    tmp31 = tmp13 * tmp30
    tmp32 = tmp29 * tmp31
    tmp33 = tmp22 + tmp32
    tl.store(in_out_ptr0 + (r0_1 + 64*x0), tmp33, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/7g/c7gb6q44mqmwczdmdcnhiorjpuhw2l354rmdpqkkhefqvrdjnmbh.py
# Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, hidden_states_7, view_77, view_79, add_34, mul_65, sum_13, hidden_states_1, view_88, view_91, add_41, view_94, add_42, mul_77, sum_17], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten.mul, aten.view, aten.sum]
# Source node to ATen node mapping:
#   add_34 => add_34
#   add_41 => add_41
#   add_42 => add_42
#   attn_output_3 => view_17
#   hidden_states_1 => mul_2
#   hidden_states_5 => add_6
#   hidden_states_7 => mul_8
#   inputs_embeds => embedding
#   mul_65 => mul_65
#   mul_77 => mul_77
#   sum_13 => sum_13
#   sum_17 => sum_17
#   view_77 => view_77
#   view_79 => view_79
#   view_88 => view_88
#   view_91 => view_91
#   view_94 => view_94
# Graph fragment:
#   %mm_34 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_34]
#   %mm_36 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_36]
#   %primals_1 : Tensor "i64[8, 256][256, 1]cuda:0" = PlaceHolder[target=primals_1]
#   %primals_2 : Tensor "f32[512, 64][64, 1]cuda:0" = PlaceHolder[target=primals_2]
#   %mm_3 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %rsqrt_1 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=rsqrt_1]
#   %mm_40 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_40]
#   %mm_42 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_42]
#   %mm_44 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_44]
#   %rsqrt : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=rsqrt]
#   %embedding : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.embedding.default](args = (%primals_2, %primals_1), kwargs = {})
#   %view_17 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_3, [8, 256, 64]), kwargs = {})
#   %add_6 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %view_17), kwargs = {})
#   %mul_8 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_6, %rsqrt_1), kwargs = {})
#   %view_77 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_34, [8, 256, 64]), kwargs = {})
#   %view_79 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_36, [8, 256, 64]), kwargs = {})
#   %add_34 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_77, %view_79), kwargs = {})
#   %mul_65 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_34, %mul_8), kwargs = {})
#   %sum_13 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_65, [0, 1], True), kwargs = {})
#   %mul_2 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%embedding, %rsqrt), kwargs = {})
#   %view_88 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_40, [8, 256, 64]), kwargs = {})
#   %view_91 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_42, [8, 256, 64]), kwargs = {})
#   %add_41 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_88, %view_91), kwargs = {})
#   %view_94 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_44, [8, 256, 64]), kwargs = {})
#   %add_42 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_41, %view_94), kwargs = {})
#   %mul_77 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_42, %mul_2), kwargs = {})
#   %sum_17 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_77, [0, 1], True), kwargs = {})
#   return %buf63,%buf86
triton_red_fused__unsafe_view_add_embedding_mul_sum_view_17 = async_compile.triton('triton_red_fused__unsafe_view_add_embedding_mul_sum_view_17', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 1024, 'r0_': 128},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*i64', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'in_ptr9': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__unsafe_view_add_embedding_mul_sum_view_17', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 2, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 3162112, 'r0_': 32768}}
)
@triton.jit
def triton_red_fused__unsafe_view_add_embedding_mul_sum_view_17(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, in_ptr9, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 1024
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 64)
    x1 = xindex // 64
    _tmp16 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    _tmp27 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp3 = tl.load(in_ptr2 + (r0_2 + 128*x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp10 = tl.load(in_ptr4 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp12 = tl.load(in_ptr5 + (r0_2 + 128*x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp18 = tl.load(in_ptr6 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp19 = tl.load(in_ptr7 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp21 = tl.load(in_ptr8 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp23 = tl.load(in_ptr9 + (r0_2 + 128*x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp4 = tl.full([1, 1], 512, tl.int32)
        tmp5 = tmp3 + tmp4
        tmp6 = tmp3 < 0
        tmp7 = tl.where(tmp6, tmp5, tmp3)
        tl.device_assert(((0 <= tmp7) & (tmp7 < 512)) | ~(r0_mask & xmask), "index out of bounds: 0 <= tmp7 < 512")
        tmp9 = tl.load(in_ptr3 + (x0 + 64*tmp7), r0_mask & xmask, eviction_policy='evict_first')
        tmp11 = tmp9 + tmp10
        tmp13 = tmp11 * tmp12
        tmp14 = tmp2 * tmp13
        tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
        tmp17 = _tmp16 + tmp15
        _tmp16 = tl.where(r0_mask & xmask, tmp17, _tmp16)
        tmp20 = tmp18 + tmp19
        tmp22 = tmp20 + tmp21
        tmp24 = tmp9 * tmp23
        tmp25 = tmp22 * tmp24
        tmp26 = tl.broadcast_to(tmp25, [XBLOCK, R0_BLOCK])
        tmp28 = _tmp27 + tmp26
        _tmp27 = tl.where(r0_mask & xmask, tmp28, _tmp27)
    tmp16 = tl.sum(_tmp16, 1)[:, None]
    tmp27 = tl.sum(_tmp27, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp16, xmask)
    tl.store(out_ptr1 + (x3), tmp27, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/36/c362jaut4mqytsghy4p542itu6r4q7p5aegpmbre3cijjx67bqv2.py
# Topologically Sorted Source Nodes: [full_default_18], Original ATen: [aten.embedding_dense_backward]
# Source node to ATen node mapping:
#   full_default_18 => full_default_18
# Graph fragment:
#   %full_default_18 : Tensor "f32[512, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([512, 64], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   return %index_put
triton_poi_fused_embedding_dense_backward_18 = async_compile.triton('triton_poi_fused_embedding_dense_backward_18', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 32768}, 
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_embedding_dense_backward_18', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 262144}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_embedding_dense_backward_18(out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 32768
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.full([1], 0.0, tl.float32)
    tl.store(out_ptr0 + (x0), tmp0, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/g3/cg3cy5icawd6fjwuixk3hkz5p6tshp6k4i4rgiuxowlh67ci2ebi.py
# Topologically Sorted Source Nodes: [inputs_embeds, hidden_states_1, hidden_states_2, view_88, view_91, add_41, view_94, add_42, mul_76, mul_78, mul_79, sum_18, add_43, pow_14, mul_80, mul_81, expand_15, div_8, pow_15, mul_82, mul_83, add_44, eq, unsqueeze_21, full_default_17, where_6, full_default_18, index_put], Original ATen: [aten.embedding, aten.mul, aten.view, aten.add, aten.sum, aten.pow, aten.expand, aten.div, aten.embedding_dense_backward]
# Source node to ATen node mapping:
#   add_41 => add_41
#   add_42 => add_42
#   add_43 => add_43
#   add_44 => add_44
#   div_8 => div_8
#   eq => eq
#   expand_15 => expand_15
#   full_default_17 => full_default_17
#   full_default_18 => full_default_18
#   hidden_states_1 => mul_2
#   hidden_states_2 => mul_3
#   index_put => index_put
#   inputs_embeds => embedding
#   mul_76 => mul_76
#   mul_78 => mul_78
#   mul_79 => mul_79
#   mul_80 => mul_80
#   mul_81 => mul_81
#   mul_82 => mul_82
#   mul_83 => mul_83
#   pow_14 => pow_14
#   pow_15 => pow_15
#   sum_18 => sum_18
#   unsqueeze_21 => unsqueeze_21
#   view_88 => view_88
#   view_91 => view_91
#   view_94 => view_94
#   where_6 => where_6
# Graph fragment:
#   %mm_40 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_40]
#   %mm_42 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_42]
#   %mm_44 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_44]
#   %primals_4 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_4]
#   %primals_1 : Tensor "i64[8, 256][256, 1]cuda:0" = PlaceHolder[target=primals_1]
#   %primals_2 : Tensor "f32[512, 64][64, 1]cuda:0" = PlaceHolder[target=primals_2]
#   %rsqrt : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=rsqrt]
#   %add_36 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_36]
#   %sum_18 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_18]
#   %add_44 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_44]
#   %index_put : Tensor "f32[512, 64][64, 1]cuda:0" = PlaceHolder[target=index_put]
#   %embedding : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.embedding.default](args = (%primals_2, %primals_1), kwargs = {})
#   %mul_2 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%embedding, %rsqrt), kwargs = {})
#   %mul_3 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%primals_4, %mul_2), kwargs = {})
#   %view_88 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_40, [8, 256, 64]), kwargs = {})
#   %view_91 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_42, [8, 256, 64]), kwargs = {})
#   %add_41 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_88, %view_91), kwargs = {})
#   %view_94 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_44, [8, 256, 64]), kwargs = {})
#   %add_42 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_41, %view_94), kwargs = {})
#   %mul_76 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_42, %primals_4), kwargs = {})
#   %mul_78 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_76, %embedding), kwargs = {})
#   %mul_79 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_76, %rsqrt), kwargs = {})
#   %sum_18 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_78, [2], True), kwargs = {})
#   %add_43 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_36, %mul_79), kwargs = {})
#   %pow_14 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%rsqrt, 3), kwargs = {})
#   %mul_80 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%sum_18, -0.5), kwargs = {})
#   %mul_81 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_80, %pow_14), kwargs = {})
#   %expand_15 : Tensor "f32[8, 256, 64][256, 1, 0]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%mul_81, [8, 256, 64]), kwargs = {})
#   %div_8 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Scalar](args = (%expand_15, 64), kwargs = {})
#   %pow_15 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%embedding, 1.0), kwargs = {})
#   %mul_82 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%pow_15, 2.0), kwargs = {})
#   %mul_83 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_8, %mul_82), kwargs = {})
#   %add_44 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_43, %mul_83), kwargs = {})
#   %eq : Tensor "b8[8, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Scalar](args = (%primals_1, -1), kwargs = {})
#   %unsqueeze_21 : Tensor "b8[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%eq, -1), kwargs = {})
#   %full_default_17 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_6 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%unsqueeze_21, %full_default_17, %add_44), kwargs = {})
#   %full_default_18 : Tensor "f32[512, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([512, 64], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %index_put : Tensor "f32[512, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index_put_.default](args = (%full_default_18, [%primals_1], %where_6, True), kwargs = {})
#   return %sum_18,%mul_3,%add_44,%buf91
triton_per_fused_add_div_embedding_embedding_dense_backward_expand_mul_pow_sum_view_19 = async_compile.triton('triton_per_fused_add_div_embedding_embedding_dense_backward_expand_mul_pow_sum_view_19', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2048, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*i64', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_div_embedding_embedding_dense_backward_expand_mul_pow_sum_view_19', 'mutated_arg_names': ['in_out_ptr0', 'out_ptr2'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': True, 'num_load': 7, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 24576, 'r0_': 3145984}}
)
@triton.jit
def triton_per_fused_add_div_embedding_embedding_dense_backward_expand_mul_pow_sum_view_19(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2048
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp3 = tl.load(in_ptr2 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp5 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp19 = tl.load(in_ptr6 + (x0), xmask, eviction_policy='evict_last')
    tmp22 = tl.load(in_out_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp6 = tmp4 * tmp5
    tmp8 = tl.full([1, 1], 512, tl.int32)
    tmp9 = tmp7 + tmp8
    tmp10 = tmp7 < 0
    tmp11 = tl.where(tmp10, tmp9, tmp7)
    tl.device_assert(((0 <= tmp11) & (tmp11 < 512)) | ~(xmask), "index out of bounds: 0 <= tmp11 < 512")
    tmp13 = tl.load(in_ptr5 + (r0_1 + 64*tmp11), xmask, other=0.0)
    tmp14 = tmp6 * tmp13
    tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
    tmp17 = tl.where(xmask, tmp15, 0)
    tmp18 = tl.sum(tmp17, 1)[:, None].to(tl.float32)
    tmp20 = tmp13 * tmp19
    tmp21 = tmp5 * tmp20
    tmp23 = tmp6 * tmp19
    tmp24 = tmp22 + tmp23
    tmp25 = tl.full([1, 1], -0.5, tl.float32)
    tmp26 = tmp18 * tmp25
    tmp27 = tmp19 * tmp19
    tmp28 = tmp27 * tmp19
    tmp29 = tmp26 * tmp28
    tmp30 = tl.full([1, 1], 0.015625, tl.float32)
    tmp31 = tmp29 * tmp30
    tmp32 = tl.full([1, 1], 2.0, tl.float32)
    tmp33 = tmp13 * tmp32
    tmp34 = tmp31 * tmp33
    tmp35 = tmp24 + tmp34
    tmp36 = tl.full([1, 1], -1, tl.int64)
    tmp37 = tmp7 == tmp36
    tmp38 = tl.full([1, 1], 0.0, tl.float32)
    tmp39 = tl.where(tmp37, tmp38, tmp35)
    tl.store(out_ptr1 + (r0_1 + 64*x0), tmp21, xmask)
    tl.atomic_add(out_ptr2 + (tl.broadcast_to(r0_1 + 64*tmp11, [XBLOCK, R0_BLOCK])), tmp39, xmask, sem='relaxed')
''', device_str='cuda')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        primals_1, primals_2, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, primals_10, primals_11, primals_12, primals_13, primals_14, primals_15, primals_16, primals_17, primals_18, primals_19, primals_20, primals_21, primals_22, primals_23, primals_24, mm_default, rsqrt, mm_2, add_4, add_5, getitem, getitem_1, getitem_2, getitem_3, rsqrt_1, add_9, rsqrt_2, mm_9, add_11, add_12, getitem_4, getitem_5, getitem_6, getitem_7, rsqrt_3, add_16, rsqrt_4, amax, log, convert_element_type_1, tangents_1 = args
        args.clear()
        assert_size_stride(primals_1, (8, 256), (256, 1))
        assert_size_stride(primals_2, (512, 64), (64, 1))
        assert_size_stride(primals_4, (64, ), (1, ))
        assert_size_stride(primals_5, (64, 64), (64, 1))
        assert_size_stride(primals_6, (32, 64), (64, 1))
        assert_size_stride(primals_7, (32, 64), (64, 1))
        assert_size_stride(primals_8, (64, 64), (64, 1))
        assert_size_stride(primals_9, (64, ), (1, ))
        assert_size_stride(primals_10, (128, 64), (64, 1))
        assert_size_stride(primals_11, (128, 64), (64, 1))
        assert_size_stride(primals_12, (64, 128), (128, 1))
        assert_size_stride(primals_13, (64, ), (1, ))
        assert_size_stride(primals_14, (64, 64), (64, 1))
        assert_size_stride(primals_15, (32, 64), (64, 1))
        assert_size_stride(primals_16, (32, 64), (64, 1))
        assert_size_stride(primals_17, (64, 64), (64, 1))
        assert_size_stride(primals_18, (64, ), (1, ))
        assert_size_stride(primals_19, (128, 64), (64, 1))
        assert_size_stride(primals_20, (128, 64), (64, 1))
        assert_size_stride(primals_21, (64, 128), (128, 1))
        assert_size_stride(primals_22, (64, ), (1, ))
        assert_size_stride(primals_23, (512, 64), (64, 1))
        assert_size_stride(primals_24, (8, 256), (256, 1))
        assert_size_stride(mm_default, (8, 256), (256, 1))
        assert_size_stride(rsqrt, (8, 256, 1), (256, 1, 1))
        assert_size_stride(mm_2, (2048, 32), (32, 1))
        assert_size_stride(add_4, (8, 4, 256, 16), (16384, 16, 64, 1))
        assert_size_stride(add_5, (8, 2, 256, 16), (8192, 16, 32, 1))
        assert_size_stride(getitem, (8, 4, 256, 16), (16384, 16, 64, 1))
        assert_size_stride(getitem_1, (8, 4, 256), (1024, 256, 1))
        assert_size_stride(getitem_2, (), ())
        assert_size_stride(getitem_3, (), ())
        assert_size_stride(rsqrt_1, (8, 256, 1), (256, 1, 1))
        assert_size_stride(add_9, (8, 256, 64), (16384, 64, 1))
        assert_size_stride(rsqrt_2, (8, 256, 1), (256, 1, 1))
        assert_size_stride(mm_9, (2048, 32), (32, 1))
        assert_size_stride(add_11, (8, 4, 256, 16), (16384, 16, 64, 1))
        assert_size_stride(add_12, (8, 2, 256, 16), (8192, 16, 32, 1))
        assert_size_stride(getitem_4, (8, 4, 256, 16), (16384, 16, 64, 1))
        assert_size_stride(getitem_5, (8, 4, 256), (1024, 256, 1))
        assert_size_stride(getitem_6, (), ())
        assert_size_stride(getitem_7, (), ())
        assert_size_stride(rsqrt_3, (8, 256, 1), (256, 1, 1))
        assert_size_stride(add_16, (8, 256, 64), (16384, 64, 1))
        assert_size_stride(rsqrt_4, (8, 256, 1), (256, 1, 1))
        assert_size_stride(amax, (2048, 1), (1, 1))
        assert_size_stride(log, (2048, 1), (1, 1))
        assert_size_stride(convert_element_type_1, (), ())
        assert_size_stride(tangents_1, (), ())
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((8, 256, 64), (16384, 64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_21, hidden_states_22], Original ATen: [aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused_mul_0.run(primals_22, add_16, rsqrt_4, buf0, 2048, 64, stream=stream0)
            buf1 = empty_strided_cuda((2048, 512), (512, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_21, hidden_states_22, logits], Original ATen: [aten.mul, aten.t, aten.view, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf0, (2048, 64), (64, 1), 0), reinterpret_tensor(primals_23, (64, 512), (1, 64), 0), out=buf1)
            buf3 = buf1; del buf1  # reuse
            # Topologically Sorted Source Nodes: [div_3, flatten_1, unsqueeze_20, ne_3, full_default_6, where_4, ne_4, full_default_8, where_5, mul_22, cross_entropy, exp_3, sum_4, mul_23, sub_2], Original ATen: [aten.nll_loss_backward, aten.view, aten.arange, aten.expand, aten.eq, aten.scalar_tensor, aten.where, aten._log_softmax, aten._log_softmax_backward_data]
            stream0 = get_raw_stream(0)
            triton_per_fused__log_softmax__log_softmax_backward_data_arange_eq_expand_nll_loss_backward_scalar_tensor_view_where_1.run(buf3, primals_24, tangents_1, convert_element_type_1, amax, log, 2048, 512, stream=stream0)
            del amax
            del convert_element_type_1
            del log
            del primals_24
            del tangents_1
            buf4 = empty_strided_cuda((512, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_21, hidden_states_22, logits, permute_24, mm_15], Original ATen: [aten.mul, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf3, (512, 2048), (1, 512), 0), reinterpret_tensor(buf0, (2048, 64), (64, 1), 0), out=buf4)
            buf5 = reinterpret_tensor(buf0, (2048, 64), (64, 1), 0); del buf0  # reuse
            # Topologically Sorted Source Nodes: [logits, permute_26, mm_16], Original ATen: [aten.t, aten.mm]
            extern_kernels.mm(buf3, primals_23, out=buf5)
            del buf3
            del primals_23
            buf6 = empty_strided_cuda((1, 1, 64, 16), (1024, 1024, 1, 64), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_21, view_50, mul_25, sum_5], Original ATen: [aten.mul, aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_red_fused_mul_sum_view_2.run(buf5, add_16, rsqrt_4, buf6, 1024, 128, stream=stream0)
            buf7 = empty_strided_cuda((1, 1, 64), (64, 64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_21, view_50, mul_25, sum_5], Original ATen: [aten.mul, aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_mul_sum_view_3.run(buf6, buf7, 64, 16, stream=stream0)
            del buf6
            buf9 = reinterpret_tensor(buf5, (8, 256, 64), (16384, 64, 1), 0); del buf5  # reuse
            # Topologically Sorted Source Nodes: [view_50, mul_24, mul_26, mul_27, sum_6, pow_6, mul_28, mul_29, expand_11, div_4, pow_7, mul_30, mul_31, add_18], Original ATen: [aten.view, aten.mul, aten.sum, aten.pow, aten.expand, aten.div, aten.add]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_div_expand_mul_pow_sum_view_4.run(buf9, primals_22, add_16, rsqrt_4, 2048, 64, stream=stream0)
            del add_16
            del primals_22
            del rsqrt_4
            buf10 = empty_strided_cuda((2048, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [transpose_8, reshape_5, attn_output_7], Original ATen: [aten.transpose, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(getitem_4, (2048, 64), (64, 1), 0), reinterpret_tensor(primals_17, (64, 64), (1, 64), 0), out=buf10)
            buf11 = empty_strided_cuda((8, 256, 64), (16384, 64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [attn_output_7, hidden_states_15, hidden_states_17, hidden_states_18], Original ATen: [aten._unsafe_view, aten.add, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused__unsafe_view_add_mul_5.run(primals_18, add_9, buf10, rsqrt_3, buf11, 131072, stream=stream0)
            buf12 = empty_strided_cuda((2048, 128), (128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [attn_output_7, hidden_states_15, hidden_states_17, hidden_states_18, linear_11], Original ATen: [aten._unsafe_view, aten.add, aten.mul, aten.t, aten.view, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf11, (2048, 64), (64, 1), 0), reinterpret_tensor(primals_19, (64, 128), (1, 64), 0), out=buf12)
            buf13 = empty_strided_cuda((2048, 128), (128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_12], Original ATen: [aten.t, aten.view, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf11, (2048, 64), (64, 1), 0), reinterpret_tensor(primals_20, (64, 128), (1, 64), 0), out=buf13)
            buf16 = empty_strided_cuda((2048, 128), (128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_52, down_proj_1, permute_30, mm_18], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf9, (2048, 64), (64, 1), 0), primals_21, out=buf16)
            del primals_21
            buf14 = empty_strided_cuda((8, 256, 128), (32768, 128, 1), torch.float32)
            buf17 = empty_strided_cuda((8, 256, 128), (32768, 128, 1), torch.float32)
            buf20 = empty_strided_cuda((8, 256, 128), (32768, 128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_11, silu_1, linear_12, mul_19, view_53, mul_32, mul_33, neg_7, exp_4, add_19, reciprocal, mul_34, mul_35, sub_3, mul_36, add_20, mul_37], Original ATen: [aten._unsafe_view, aten.silu, aten.mul, aten.view, aten.silu_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__unsafe_view_mul_silu_silu_backward_view_6.run(buf12, buf13, buf16, buf14, buf17, buf20, 262144, stream=stream0)
            del buf12
            del buf13
            del buf16
            buf15 = empty_strided_cuda((64, 128), (128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_52, permute_28, linear_11, silu_1, linear_12, mul_19, down_proj_1, mm_17], Original ATen: [aten.view, aten.t, aten._unsafe_view, aten.silu, aten.mul, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf9, (64, 2048), (1, 64), 0), reinterpret_tensor(buf14, (2048, 128), (128, 1), 0), out=buf15)
            del buf14
            buf18 = empty_strided_cuda((128, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_11, silu_1, linear_12, view_53, mul_32, view_54, permute_32, mm_19], Original ATen: [aten._unsafe_view, aten.silu, aten.view, aten.mul, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf17, (128, 2048), (1, 128), 0), reinterpret_tensor(buf11, (2048, 64), (64, 1), 0), out=buf18)
            buf19 = empty_strided_cuda((2048, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_11, silu_1, linear_12, view_53, mul_32, view_54, permute_34, mm_20], Original ATen: [aten._unsafe_view, aten.silu, aten.t, aten.view, aten.mul, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf17, (2048, 128), (128, 1), 0), primals_20, out=buf19)
            del buf17
            del primals_20
            buf21 = empty_strided_cuda((128, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [attn_output_7, hidden_states_15, hidden_states_17, hidden_states_18, linear_11, linear_12, view_53, mul_33, neg_7, exp_4, add_19, reciprocal, mul_34, mul_35, sub_3, mul_36, add_20, mul_37, view_56, permute_36, mm_21], Original ATen: [aten._unsafe_view, aten.add, aten.mul, aten.view, aten.silu_backward, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf20, (128, 2048), (1, 128), 0), reinterpret_tensor(buf11, (2048, 64), (64, 1), 0), out=buf21)
            buf22 = reinterpret_tensor(buf11, (2048, 64), (64, 1), 0); del buf11  # reuse
            # Topologically Sorted Source Nodes: [linear_11, linear_12, view_53, mul_33, neg_7, exp_4, add_19, reciprocal, mul_34, mul_35, sub_3, mul_36, add_20, mul_37, view_56, permute_38, mm_22], Original ATen: [aten.t, aten._unsafe_view, aten.view, aten.mul, aten.silu_backward, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf20, (2048, 128), (128, 1), 0), primals_19, out=buf22)
            del buf20
            del primals_19
            buf26 = buf9; del buf9  # reuse
            # Topologically Sorted Source Nodes: [attn_output_7, hidden_states_15, view_55, view_57, add_21, mul_38, mul_40, mul_41, sum_8, add_22, pow_8, mul_42, mul_43, expand_12, div_5, pow_9, mul_44, mul_45, add_23], Original ATen: [aten._unsafe_view, aten.add, aten.view, aten.mul, aten.sum, aten.pow, aten.expand, aten.div]
            stream0 = get_raw_stream(0)
            triton_per_fused__unsafe_view_add_div_expand_mul_pow_sum_view_7.run(buf26, buf19, buf22, primals_18, add_9, buf10, rsqrt_3, 2048, 64, stream=stream0)
            del primals_18
            buf28 = empty_strided_cuda((2048, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [attn_output_7, view_59, permute_42, mm_24], Original ATen: [aten.t, aten.view, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf26, (2048, 64), (64, 1), 0), primals_17, out=buf28)
            del primals_17
            buf29 = empty_strided_cuda((8, 4, 256, 16), (16384, 4096, 16, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_60, view_61, permute_44, arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, linear_9, view_5, value_states_1, getitem_16, hidden_states_13, key_1, getitem_17, hidden_states_14, value_1, attn_output_4, _scaled_dot_product_efficient_attention_backward], Original ATen: [aten.view, aten.transpose, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten._unsafe_view, aten.clone, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_8.run(add_12, buf29, 131072, stream=stream0)
            del add_12
            buf30 = empty_strided_cuda((8, 4, 256, 16), (16384, 4096, 16, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_60, view_61, permute_44, arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, linear_9, view_5, value_states_1, getitem_16, hidden_states_13, key_1, getitem_17, hidden_states_14, value_1, attn_output_4, _scaled_dot_product_efficient_attention_backward], Original ATen: [aten.view, aten.transpose, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten._unsafe_view, aten.clone, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_8.run(mm_9, buf30, 131072, stream=stream0)
            del mm_9
            buf31 = empty_strided_cuda((8, 4, 256, 256), (262144, 65536, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_60, view_61, permute_44, arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, linear_9, view_5, value_states_1, getitem_16, hidden_states_13, key_1, getitem_17, hidden_states_14, value_1, attn_output_4, _scaled_dot_product_efficient_attention_backward], Original ATen: [aten.view, aten.transpose, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten._unsafe_view, aten.clone, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_9.run(buf31, 2097152, stream=stream0)
            # Topologically Sorted Source Nodes: [view_60, view_61, permute_44, arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, linear_9, view_5, value_states_1, getitem_16, hidden_states_13, key_1, getitem_17, hidden_states_14, value_1, attn_output_4, _scaled_dot_product_efficient_attention_backward], Original ATen: [aten.view, aten.transpose, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten._unsafe_view, aten.clone, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            buf32 = torch.ops.aten._scaled_dot_product_efficient_attention_backward.default(reinterpret_tensor(buf28, (8, 4, 256, 16), (16384, 16, 64, 1), 0), add_11, buf29, buf30, buf31, getitem_4, getitem_5, getitem_6, getitem_7, 0.0, [True, True, True, False], scale=0.25)
            del add_11
            del buf28
            del buf29
            del buf31
            del getitem_5
            del getitem_6
            del getitem_7
            buf35 = buf32[2]
            assert_size_stride(buf35, (8, 4, 256, 16), (16384, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            assert_alignment(buf35, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            buf36 = empty_strided_cuda((8, 256, 2, 16), (8192, 32, 16, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_62, sum_9, squeeze_1, permute_45, clone_10], Original ATen: [aten.view, aten.sum, aten.squeeze, aten.transpose, aten.clone]
            stream0 = get_raw_stream(0)
            triton_poi_fused_clone_squeeze_sum_transpose_view_10.run(buf35, buf36, 65536, stream=stream0)
            buf39 = reinterpret_tensor(buf35, (2048, 64), (64, 1), 0); del buf35  # reuse
            # Topologically Sorted Source Nodes: [view_62, sum_9, squeeze_1, permute_45, clone_10, view_64, view_65, linear_9, permute_48, mm_26], Original ATen: [aten.view, aten.sum, aten.squeeze, aten.transpose, aten.clone, aten._unsafe_view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf36, (2048, 32), (32, 1), 0), primals_16, out=buf39)
            del primals_16
            buf34 = buf32[1]
            assert_size_stride(buf34, (8, 4, 256, 16), (16384, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            assert_alignment(buf34, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            buf40 = empty_strided_cuda((8, 256, 2, 16), (8192, 32, 16, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_63, sum_10, squeeze_2, matmul, freqs, emb, sin, sin_1, sin_4, mul_46, slice_11, slice_12, neg_8, full_default_9, full_default_10, add_24, cos, cos_1, cos_4, mul_47, add_25, permute_50, clone_11], Original ATen: [aten.view, aten.sum, aten.squeeze, aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.unsqueeze, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.cos, aten.clone]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_11.run(buf34, mm_default, buf40, 65536, stream=stream0)
            buf42 = reinterpret_tensor(buf34, (2048, 64), (64, 1), 0); del buf34  # reuse
            # Topologically Sorted Source Nodes: [view_63, sum_10, squeeze_2, matmul, freqs, emb, sin, sin_1, sin_4, mul_46, slice_11, slice_12, neg_8, full_default_9, full_default_10, add_24, cos, cos_1, cos_4, mul_47, add_25, permute_50, clone_11, view_67, view_68, linear_8, permute_53, mm_28], Original ATen: [aten.view, aten.sum, aten.squeeze, aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.unsqueeze, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.cos, aten.clone, aten._unsafe_view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf40, (2048, 32), (32, 1), 0), primals_15, out=buf42)
            del primals_15
            buf33 = buf32[0]
            assert_size_stride(buf33, (8, 4, 256, 16), (16384, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            assert_alignment(buf33, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            del buf32
            buf43 = reinterpret_tensor(buf30, (8, 256, 4, 16), (16384, 64, 16, 1), 0); del buf30  # reuse
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, sin, sin_1, sin_4, cos, cos_1, cos_4, mul_48, slice_13, slice_14, neg_9, full_default_11, full_default_12, add_26, mul_49, add_27, permute_55, clone_12], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.unsqueeze, aten.cos, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.clone]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_transpose_unsqueeze_12.run(buf33, mm_default, buf43, 131072, stream=stream0)
            buf45 = reinterpret_tensor(buf33, (2048, 64), (64, 1), 0); del buf33  # reuse
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, sin, sin_1, sin_4, cos, cos_1, cos_4, mul_48, slice_13, slice_14, neg_9, full_default_11, full_default_12, add_26, mul_49, add_27, permute_55, clone_12, view_70, view_71, linear_7, permute_58, mm_30], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.unsqueeze, aten.cos, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.clone, aten._unsafe_view, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf43, (2048, 64), (64, 1), 0), primals_14, out=buf45)
            del primals_14
            buf23 = empty_strided_cuda((1, 1, 64, 16), (1024, 1024, 1, 64), torch.float32)
            buf46 = empty_strided_cuda((1, 1, 64, 16), (1024, 1024, 1, 64), torch.float32)
            # Topologically Sorted Source Nodes: [attn_output_7, hidden_states_15, hidden_states_17, view_55, view_57, add_21, mul_39, sum_7, hidden_states_11, view_66, view_69, add_28, view_72, add_29, mul_51, sum_11], Original ATen: [aten._unsafe_view, aten.add, aten.mul, aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_red_fused__unsafe_view_add_mul_sum_view_13.run(buf19, buf22, add_9, buf10, rsqrt_3, buf39, buf42, buf45, rsqrt_2, buf23, buf46, 1024, 128, stream=stream0)
            del buf10
            del rsqrt_3
            buf24 = empty_strided_cuda((1, 1, 64), (64, 64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [attn_output_7, hidden_states_15, hidden_states_17, view_55, view_57, add_21, mul_39, sum_7], Original ATen: [aten._unsafe_view, aten.add, aten.mul, aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_mul_sum_view_3.run(buf23, buf24, 64, 16, stream=stream0)
            buf27 = empty_strided_cuda((64, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [transpose_8, reshape_5, attn_output_7, view_59, permute_40, mm_23], Original ATen: [aten.transpose, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf26, (64, 2048), (1, 64), 0), reinterpret_tensor(getitem_4, (2048, 64), (64, 1), 0), out=buf27)
            del getitem_4
            buf37 = reinterpret_tensor(buf22, (8, 256, 64), (16384, 64, 1), 0); del buf22  # reuse
            buf49 = buf26; del buf26  # reuse
            # Topologically Sorted Source Nodes: [hidden_states_11, hidden_states_12, view_66, view_69, add_28, view_72, add_29, mul_50, mul_52, mul_53, sum_12, add_30, pow_10, mul_54, mul_55, expand_13, div_6, pow_11, mul_56, mul_57, add_31], Original ATen: [aten.mul, aten.view, aten.add, aten.sum, aten.pow, aten.expand, aten.div]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_div_expand_mul_pow_sum_view_14.run(buf49, buf39, buf42, buf45, primals_13, add_9, rsqrt_2, buf37, 2048, 64, stream=stream0)
            del add_9
            del primals_13
            del rsqrt_2
            buf38 = empty_strided_cuda((32, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_62, sum_9, squeeze_1, permute_45, clone_10, view_64, view_65, permute_46, hidden_states_11, hidden_states_12, linear_9, mm_25], Original ATen: [aten.view, aten.sum, aten.squeeze, aten.transpose, aten.clone, aten._unsafe_view, aten.t, aten.mul, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf36, (32, 2048), (1, 32), 0), reinterpret_tensor(buf37, (2048, 64), (64, 1), 0), out=buf38)
            buf41 = empty_strided_cuda((32, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_63, sum_10, squeeze_2, matmul, freqs, emb, sin, sin_1, sin_4, mul_46, slice_11, slice_12, neg_8, full_default_9, full_default_10, add_24, cos, cos_1, cos_4, mul_47, add_25, permute_50, clone_11, view_67, view_68, permute_51, linear_8, mm_27], Original ATen: [aten.view, aten.sum, aten.squeeze, aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.unsqueeze, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.cos, aten.clone, aten._unsafe_view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf40, (32, 2048), (1, 32), 0), reinterpret_tensor(buf37, (2048, 64), (64, 1), 0), out=buf41)
            buf44 = empty_strided_cuda((64, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, sin, sin_1, sin_4, cos, cos_1, cos_4, mul_48, slice_13, slice_14, neg_9, full_default_11, full_default_12, add_26, mul_49, add_27, permute_55, clone_12, view_70, view_71, permute_56, linear_7, mm_29], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.unsqueeze, aten.cos, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.clone, aten._unsafe_view, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf43, (64, 2048), (1, 64), 0), reinterpret_tensor(buf37, (2048, 64), (64, 1), 0), out=buf44)
            buf47 = empty_strided_cuda((1, 1, 64), (64, 64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_11, view_66, view_69, add_28, view_72, add_29, mul_51, sum_11], Original ATen: [aten.mul, aten.view, aten.add, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_mul_sum_view_3.run(buf46, buf47, 64, 16, stream=stream0)
            buf50 = reinterpret_tensor(buf43, (2048, 64), (64, 1), 0); del buf43  # reuse
            # Topologically Sorted Source Nodes: [transpose_4, reshape_2, attn_output_3], Original ATen: [aten.transpose, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(getitem, (2048, 64), (64, 1), 0), reinterpret_tensor(primals_8, (64, 64), (1, 64), 0), out=buf50)
            buf51 = buf37; del buf37  # reuse
            # Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, hidden_states_7, hidden_states_8], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused__unsafe_view_add_embedding_mul_15.run(primals_9, primals_1, primals_2, buf50, rsqrt_1, buf51, 2048, 64, stream=stream0)
            buf52 = empty_strided_cuda((2048, 128), (128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_4], Original ATen: [aten.t, aten.view, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf51, (2048, 64), (64, 1), 0), reinterpret_tensor(primals_10, (64, 128), (1, 64), 0), out=buf52)
            buf53 = empty_strided_cuda((2048, 128), (128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_5], Original ATen: [aten.t, aten.view, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf51, (2048, 64), (64, 1), 0), reinterpret_tensor(primals_11, (64, 128), (1, 64), 0), out=buf53)
            buf56 = empty_strided_cuda((2048, 128), (128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_74, down_proj, permute_62, mm_32], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf49, (2048, 64), (64, 1), 0), primals_12, out=buf56)
            del primals_12
            buf54 = empty_strided_cuda((8, 256, 128), (32768, 128, 1), torch.float32)
            buf57 = empty_strided_cuda((8, 256, 128), (32768, 128, 1), torch.float32)
            buf60 = empty_strided_cuda((8, 256, 128), (32768, 128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_4, silu, linear_5, mul_10, view_75, mul_58, mul_59, neg_10, exp_5, add_32, reciprocal_1, mul_60, mul_61, sub_4, mul_62, add_33, mul_63], Original ATen: [aten._unsafe_view, aten.silu, aten.mul, aten.view, aten.silu_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__unsafe_view_mul_silu_silu_backward_view_6.run(buf52, buf53, buf56, buf54, buf57, buf60, 262144, stream=stream0)
            del buf52
            del buf53
            del buf56
            buf55 = empty_strided_cuda((64, 128), (128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_74, permute_60, linear_4, silu, linear_5, mul_10, down_proj, mm_31], Original ATen: [aten.view, aten.t, aten._unsafe_view, aten.silu, aten.mul, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf49, (64, 2048), (1, 64), 0), reinterpret_tensor(buf54, (2048, 128), (128, 1), 0), out=buf55)
            del buf54
            buf58 = empty_strided_cuda((128, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_4, silu, linear_5, view_75, mul_58, view_76, permute_64, mm_33], Original ATen: [aten._unsafe_view, aten.silu, aten.view, aten.mul, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf57, (128, 2048), (1, 128), 0), reinterpret_tensor(buf51, (2048, 64), (64, 1), 0), out=buf58)
            buf59 = buf45; del buf45  # reuse
            # Topologically Sorted Source Nodes: [linear_4, silu, linear_5, view_75, mul_58, view_76, permute_66, mm_34], Original ATen: [aten._unsafe_view, aten.silu, aten.t, aten.view, aten.mul, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf57, (2048, 128), (128, 1), 0), primals_11, out=buf59)
            del buf57
            del primals_11
            buf61 = empty_strided_cuda((128, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear_4, linear_5, view_75, mul_59, neg_10, exp_5, add_32, reciprocal_1, mul_60, mul_61, sub_4, mul_62, add_33, mul_63, view_78, permute_68, mm_35], Original ATen: [aten.view, aten._unsafe_view, aten.mul, aten.silu_backward, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf60, (128, 2048), (1, 128), 0), reinterpret_tensor(buf51, (2048, 64), (64, 1), 0), out=buf61)
            buf62 = reinterpret_tensor(buf51, (2048, 64), (64, 1), 0); del buf51  # reuse
            # Topologically Sorted Source Nodes: [linear_4, linear_5, view_75, mul_59, neg_10, exp_5, add_32, reciprocal_1, mul_60, mul_61, sub_4, mul_62, add_33, mul_63, view_78, permute_70, mm_36], Original ATen: [aten.t, aten._unsafe_view, aten.view, aten.mul, aten.silu_backward, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf60, (2048, 128), (128, 1), 0), primals_10, out=buf62)
            del buf60
            del primals_10
            buf66 = buf49; del buf49  # reuse
            # Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, view_77, view_79, add_34, mul_64, mul_66, mul_67, sum_14, add_35, pow_12, mul_68, mul_69, expand_14, div_7, pow_13, mul_70, mul_71, add_36], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten.view, aten.mul, aten.sum, aten.pow, aten.expand, aten.div]
            stream0 = get_raw_stream(0)
            triton_per_fused__unsafe_view_add_div_embedding_expand_mul_pow_sum_view_16.run(buf66, buf59, buf62, primals_9, primals_1, primals_2, buf50, rsqrt_1, 2048, 64, stream=stream0)
            del primals_9
            buf68 = buf42; del buf42  # reuse
            # Topologically Sorted Source Nodes: [attn_output_3, view_81, permute_74, mm_38], Original ATen: [aten.t, aten.view, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf66, (2048, 64), (64, 1), 0), primals_8, out=buf68)
            del primals_8
            buf69 = reinterpret_tensor(buf39, (8, 4, 256, 16), (16384, 4096, 16, 1), 0); del buf39  # reuse
            # Topologically Sorted Source Nodes: [arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, view_82, view_83, permute_76, linear_2, view_2, value_states, getitem_10, hidden_states_3, key, getitem_11, hidden_states_4, value, attn_output, _scaled_dot_product_efficient_attention_backward_1], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.view, aten.transpose, aten._unsafe_view, aten.clone, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_8.run(add_5, buf69, 131072, stream=stream0)
            del add_5
            buf70 = reinterpret_tensor(buf19, (8, 4, 256, 16), (16384, 4096, 16, 1), 0); del buf19  # reuse
            # Topologically Sorted Source Nodes: [arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, view_82, view_83, permute_76, linear_2, view_2, value_states, getitem_10, hidden_states_3, key, getitem_11, hidden_states_4, value, attn_output, _scaled_dot_product_efficient_attention_backward_1], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.view, aten.transpose, aten._unsafe_view, aten.clone, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_8.run(mm_2, buf70, 131072, stream=stream0)
            del mm_2
            buf71 = empty_strided_cuda((8, 4, 256, 256), (262144, 65536, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, view_82, view_83, permute_76, linear_2, view_2, value_states, getitem_10, hidden_states_3, key, getitem_11, hidden_states_4, value, attn_output, _scaled_dot_product_efficient_attention_backward_1], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.view, aten.transpose, aten._unsafe_view, aten.clone, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_efficient_attention_backward__unsafe_view_add_arange_clone_expand_le_scalar_tensor_transpose_unsqueeze_view_where_9.run(buf71, 2097152, stream=stream0)
            # Topologically Sorted Source Nodes: [arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, view_82, view_83, permute_76, linear_2, view_2, value_states, getitem_10, hidden_states_3, key, getitem_11, hidden_states_4, value, attn_output, _scaled_dot_product_efficient_attention_backward_1], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.view, aten.transpose, aten._unsafe_view, aten.clone, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            buf72 = torch.ops.aten._scaled_dot_product_efficient_attention_backward.default(reinterpret_tensor(buf68, (8, 4, 256, 16), (16384, 16, 64, 1), 0), add_4, buf69, buf70, buf71, getitem, getitem_1, getitem_2, getitem_3, 0.0, [True, True, True, False], scale=0.25)
            del add_4
            del buf68
            del buf69
            del buf71
            del getitem_1
            del getitem_2
            del getitem_3
            buf75 = buf72[2]
            assert_size_stride(buf75, (8, 4, 256, 16), (16384, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            assert_alignment(buf75, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            buf76 = buf40; del buf40  # reuse
            # Topologically Sorted Source Nodes: [view_84, sum_15, squeeze_3, permute_77, clone_13], Original ATen: [aten.view, aten.sum, aten.squeeze, aten.transpose, aten.clone]
            stream0 = get_raw_stream(0)
            triton_poi_fused_clone_squeeze_sum_transpose_view_10.run(buf75, buf76, 65536, stream=stream0)
            buf79 = reinterpret_tensor(buf75, (2048, 64), (64, 1), 0); del buf75  # reuse
            # Topologically Sorted Source Nodes: [view_84, sum_15, squeeze_3, permute_77, clone_13, view_86, view_87, linear_2, permute_80, mm_40], Original ATen: [aten.view, aten.sum, aten.squeeze, aten.transpose, aten.clone, aten._unsafe_view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf76, (2048, 32), (32, 1), 0), primals_7, out=buf79)
            del primals_7
            buf74 = buf72[1]
            assert_size_stride(buf74, (8, 4, 256, 16), (16384, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            assert_alignment(buf74, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            buf80 = buf36; del buf36  # reuse
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, sin, sin_1, cos, cos_1, view_85, sum_16, squeeze_4, sin_3, mul_72, slice_17, slice_18, neg_11, full_default_13, full_default_14, add_37, cos_3, mul_73, add_38, permute_82, clone_14], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.cos, aten.view, aten.sum, aten.squeeze, aten.unsqueeze, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.clone]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_squeeze_sum_transpose_unsqueeze_view_11.run(buf74, mm_default, buf80, 65536, stream=stream0)
            buf82 = reinterpret_tensor(buf74, (2048, 64), (64, 1), 0); del buf74  # reuse
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, sin, sin_1, cos, cos_1, view_85, sum_16, squeeze_4, sin_3, mul_72, slice_17, slice_18, neg_11, full_default_13, full_default_14, add_37, cos_3, mul_73, add_38, permute_82, clone_14, view_89, view_90, linear_1, permute_85, mm_42], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.cos, aten.view, aten.sum, aten.squeeze, aten.unsqueeze, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.clone, aten._unsafe_view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf80, (2048, 32), (32, 1), 0), primals_6, out=buf82)
            del primals_6
            buf73 = buf72[0]
            assert_size_stride(buf73, (8, 4, 256, 16), (16384, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            assert_alignment(buf73, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            del buf72
            buf83 = reinterpret_tensor(buf70, (8, 256, 4, 16), (16384, 64, 16, 1), 0); del buf70  # reuse
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, sin, sin_1, cos, cos_1, sin_3, cos_3, mul_74, slice_19, slice_20, neg_12, full_default_15, full_default_16, add_39, mul_75, add_40, permute_87, clone_15], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.cos, aten.unsqueeze, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.clone]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_bmm_cat_clone_cos_mul_neg_sin_slice_slice_backward_transpose_unsqueeze_12.run(buf73, mm_default, buf83, 131072, stream=stream0)
            del mm_default
            buf85 = reinterpret_tensor(buf73, (2048, 64), (64, 1), 0); del buf73  # reuse
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, sin, sin_1, cos, cos_1, sin_3, cos_3, mul_74, slice_19, slice_20, neg_12, full_default_15, full_default_16, add_39, mul_75, add_40, permute_87, clone_15, view_92, view_93, linear, permute_90, mm_44], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.cos, aten.unsqueeze, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.clone, aten._unsafe_view, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf83, (2048, 64), (64, 1), 0), primals_5, out=buf85)
            del primals_5
            buf63 = buf46; del buf46  # reuse
            buf86 = buf23; del buf23  # reuse
            # Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, hidden_states_7, view_77, view_79, add_34, mul_65, sum_13, hidden_states_1, view_88, view_91, add_41, view_94, add_42, mul_77, sum_17], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten.mul, aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_red_fused__unsafe_view_add_embedding_mul_sum_view_17.run(buf59, buf62, primals_1, primals_2, buf50, rsqrt_1, buf79, buf82, buf85, rsqrt, buf63, buf86, 1024, 128, stream=stream0)
            del buf50
            del buf59
            del rsqrt_1
            buf64 = empty_strided_cuda((1, 1, 64), (64, 64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, hidden_states_7, view_77, view_79, add_34, mul_65, sum_13], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten.mul, aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_mul_sum_view_3.run(buf63, buf64, 64, 16, stream=stream0)
            del buf63
            buf67 = empty_strided_cuda((64, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [transpose_4, reshape_2, attn_output_3, view_81, permute_72, mm_37], Original ATen: [aten.transpose, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf66, (64, 2048), (1, 64), 0), reinterpret_tensor(getitem, (2048, 64), (64, 1), 0), out=buf67)
            del getitem
            buf90 = empty_strided_cuda((512, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [full_default_18], Original ATen: [aten.embedding_dense_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused_embedding_dense_backward_18.run(buf90, 32768, stream=stream0)
            buf77 = reinterpret_tensor(buf62, (8, 256, 64), (16384, 64, 1), 0); del buf62  # reuse
            buf89 = buf66; del buf66  # reuse
            # Topologically Sorted Source Nodes: [inputs_embeds, hidden_states_1, hidden_states_2, view_88, view_91, add_41, view_94, add_42, mul_76, mul_78, mul_79, sum_18, add_43, pow_14, mul_80, mul_81, expand_15, div_8, pow_15, mul_82, mul_83, add_44, eq, unsqueeze_21, full_default_17, where_6, full_default_18, index_put], Original ATen: [aten.embedding, aten.mul, aten.view, aten.add, aten.sum, aten.pow, aten.expand, aten.div, aten.embedding_dense_backward]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_div_embedding_embedding_dense_backward_expand_mul_pow_sum_view_19.run(buf89, buf79, buf82, buf85, primals_4, primals_1, primals_2, rsqrt, buf77, buf90, 2048, 64, stream=stream0)
            del buf79
            del buf82
            del buf85
            del buf89
            del primals_1
            del primals_2
            del primals_4
            del rsqrt
            buf78 = empty_strided_cuda((32, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [inputs_embeds, view_84, sum_15, squeeze_3, permute_77, clone_13, view_86, view_87, permute_78, hidden_states_1, hidden_states_2, linear_2, mm_39], Original ATen: [aten.embedding, aten.view, aten.sum, aten.squeeze, aten.transpose, aten.clone, aten._unsafe_view, aten.t, aten.mul, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf76, (32, 2048), (1, 32), 0), reinterpret_tensor(buf77, (2048, 64), (64, 1), 0), out=buf78)
            del buf76
            buf81 = empty_strided_cuda((32, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, sin, sin_1, cos, cos_1, view_85, sum_16, squeeze_4, sin_3, mul_72, slice_17, slice_18, neg_11, full_default_13, full_default_14, add_37, cos_3, mul_73, add_38, permute_82, clone_14, view_89, view_90, permute_83, linear_1, mm_41], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.cos, aten.view, aten.sum, aten.squeeze, aten.unsqueeze, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.clone, aten._unsafe_view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf80, (32, 2048), (1, 32), 0), reinterpret_tensor(buf77, (2048, 64), (64, 1), 0), out=buf81)
            del buf80
            buf84 = empty_strided_cuda((64, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, sin, sin_1, cos, cos_1, sin_3, cos_3, mul_74, slice_19, slice_20, neg_12, full_default_15, full_default_16, add_39, mul_75, add_40, permute_87, clone_15, view_92, view_93, permute_88, linear, mm_43], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.sin, aten.mul, aten.cos, aten.unsqueeze, aten.slice, aten.neg, aten.slice_backward, aten.add, aten.clone, aten._unsafe_view, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf83, (64, 2048), (1, 64), 0), reinterpret_tensor(buf77, (2048, 64), (64, 1), 0), out=buf84)
            del buf77
            del buf83
            buf87 = empty_strided_cuda((1, 1, 64), (64, 64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [inputs_embeds, hidden_states_1, view_88, view_91, add_41, view_94, add_42, mul_77, sum_17], Original ATen: [aten.embedding, aten.mul, aten.view, aten.add, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_mul_sum_view_3.run(buf86, buf87, 64, 16, stream=stream0)
            del buf86
        return (None, buf90, None, reinterpret_tensor(buf87, (64, ), (1, ), 0), buf84, buf81, buf78, buf67, reinterpret_tensor(buf64, (64, ), (1, ), 0), buf61, buf58, buf55, reinterpret_tensor(buf47, (64, ), (1, ), 0), buf44, buf41, buf38, buf27, reinterpret_tensor(buf24, (64, ), (1, ), 0), buf21, buf18, buf15, reinterpret_tensor(buf7, (64, ), (1, ), 0), buf4, None, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    primals_1 = rand_strided((8, 256), (256, 1), device='cuda:0', dtype=torch.int64)
    primals_2 = rand_strided((512, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_4 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_5 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_6 = rand_strided((32, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_7 = rand_strided((32, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_8 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_9 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_10 = rand_strided((128, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_11 = rand_strided((128, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_12 = rand_strided((64, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    primals_13 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_14 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_15 = rand_strided((32, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_16 = rand_strided((32, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_17 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_18 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_19 = rand_strided((128, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_20 = rand_strided((128, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_21 = rand_strided((64, 128), (128, 1), device='cuda:0', dtype=torch.float32)
    primals_22 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_23 = rand_strided((512, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_24 = rand_strided((8, 256), (256, 1), device='cuda:0', dtype=torch.int64)
    mm_default = rand_strided((8, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    rsqrt = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    mm_2 = rand_strided((2048, 32), (32, 1), device='cuda:0', dtype=torch.float32)
    add_4 = rand_strided((8, 4, 256, 16), (16384, 16, 64, 1), device='cuda:0', dtype=torch.float32)
    add_5 = rand_strided((8, 2, 256, 16), (8192, 16, 32, 1), device='cuda:0', dtype=torch.float32)
    getitem = rand_strided((8, 4, 256, 16), (16384, 16, 64, 1), device='cuda:0', dtype=torch.float32)
    getitem_1 = rand_strided((8, 4, 256), (1024, 256, 1), device='cuda:0', dtype=torch.float32)
    getitem_2 = rand_strided((), (), device='cuda:0', dtype=torch.int64)
    getitem_3 = rand_strided((), (), device='cuda:0', dtype=torch.int64)
    rsqrt_1 = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    add_9 = rand_strided((8, 256, 64), (16384, 64, 1), device='cuda:0', dtype=torch.float32)
    rsqrt_2 = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    mm_9 = rand_strided((2048, 32), (32, 1), device='cuda:0', dtype=torch.float32)
    add_11 = rand_strided((8, 4, 256, 16), (16384, 16, 64, 1), device='cuda:0', dtype=torch.float32)
    add_12 = rand_strided((8, 2, 256, 16), (8192, 16, 32, 1), device='cuda:0', dtype=torch.float32)
    getitem_4 = rand_strided((8, 4, 256, 16), (16384, 16, 64, 1), device='cuda:0', dtype=torch.float32)
    getitem_5 = rand_strided((8, 4, 256), (1024, 256, 1), device='cuda:0', dtype=torch.float32)
    getitem_6 = rand_strided((), (), device='cuda:0', dtype=torch.int64)
    getitem_7 = rand_strided((), (), device='cuda:0', dtype=torch.int64)
    rsqrt_3 = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    add_16 = rand_strided((8, 256, 64), (16384, 64, 1), device='cuda:0', dtype=torch.float32)
    rsqrt_4 = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    amax = rand_strided((2048, 1), (1, 1), device='cuda:0', dtype=torch.float32)
    log = rand_strided((2048, 1), (1, 1), device='cuda:0', dtype=torch.float32)
    convert_element_type_1 = rand_strided((), (), device='cuda:0', dtype=torch.float32)
    tangents_1 = rand_strided((), (), device='cuda:0', dtype=torch.float32)
    return [primals_1, primals_2, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, primals_10, primals_11, primals_12, primals_13, primals_14, primals_15, primals_16, primals_17, primals_18, primals_19, primals_20, primals_21, primals_22, primals_23, primals_24, mm_default, rsqrt, mm_2, add_4, add_5, getitem, getitem_1, getitem_2, getitem_3, rsqrt_1, add_9, rsqrt_2, mm_9, add_11, add_12, getitem_4, getitem_5, getitem_6, getitem_7, rsqrt_3, add_16, rsqrt_4, amax, log, convert_element_type_1, tangents_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
