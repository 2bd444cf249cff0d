# AOT ID: ['3_backward']
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


# kernel path: /tmp/torchinductor_root/ba/cbaf54lfe7lgu5i4jy2rfkwjtskan6zku7qaszdalspgp66zzjfx.py
# Topologically Sorted Source Nodes: [div_1, flatten_1, unsqueeze_8, ne_3, full_default_6, where_4, ne_4, full_default_8, where_5, mul_18, cross_entropy, exp_1, sum_4, mul_19, sub_7], Original ATen: [aten.nll_loss_backward, aten.view, aten.arange, aten.expand, aten.eq, aten.scalar_tensor, aten.where, aten._log_softmax, aten._log_softmax_backward_data]
# Source node to ATen node mapping:
#   cross_entropy => log, sub_5, sub_6
#   div_1 => div_1
#   exp_1 => exp_1
#   flatten_1 => view_29
#   full_default_6 => full_default_6
#   full_default_8 => full_default_8
#   mul_18 => mul_18
#   mul_19 => mul_19
#   ne_3 => ne_3
#   ne_4 => ne_4
#   sub_7 => sub_7
#   sum_4 => sum_4
#   unsqueeze_8 => unsqueeze_8
#   where_4 => where_4
#   where_5 => where_5
# Graph fragment:
#   %primals_30 : Tensor "i64[8, 256][256, 1]cuda:0" = PlaceHolder[target=primals_30]
#   %tangents_1 : Tensor "f32[][]cuda:0" = PlaceHolder[target=tangents_1]
#   %convert_element_type : Tensor "f32[][]cuda:0" = PlaceHolder[target=convert_element_type]
#   %mm : Tensor "f32[2048, 512][512, 1]cuda:0" = PlaceHolder[target=mm]
#   %amax : Tensor "f32[2048, 1][1, 1]cuda:0" = PlaceHolder[target=amax]
#   %sum_1 : Tensor "f32[2048, 1][1, 1]cuda:0" = PlaceHolder[target=sum_1]
#   %sum_4 : Tensor "f32[2048, 1][1, 2048]cuda:0" = PlaceHolder[target=sum_4]
#   %div_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%tangents_1, %convert_element_type), kwargs = {})
#   %view_29 : Tensor "i64[2048][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%primals_30, [2048]), kwargs = {})
#   %unsqueeze_8 : Tensor "i64[2048, 1][1, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%view_29, 1), kwargs = {})
#   %ne_3 : Tensor "b8[2048, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.ne.Scalar](args = (%unsqueeze_8, -100), kwargs = {})
#   %full_default_6 : Tensor "i64[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0), kwargs = {dtype: torch.int64, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_4 : Tensor "i64[2048, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%ne_3, %unsqueeze_8, %full_default_6), kwargs = {})
#   %iota_default : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (512,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %view_default : Tensor "i64[1, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%iota_default, [1, 512]), kwargs = {})
#   %expand_default : Tensor "i64[2048, 512][1, 0]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_4, [2048, 512]), kwargs = {})
#   %eq_tensor : Tensor "b8[2048, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Tensor](args = (%expand_default, %view_default), kwargs = {})
#   %scalar_tensor_default : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.scalar_tensor.default](args = (0,), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0})
#   %scalar_tensor_default_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.scalar_tensor.default](args = (-1.0,), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0})
#   %where_self : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%eq_tensor, %scalar_tensor_default_1, %scalar_tensor_default), kwargs = {})
#   %ne_4 : Tensor "b8[2048, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.ne.Scalar](args = (%unsqueeze_8, -100), kwargs = {})
#   %full_default_8 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_5 : Tensor "f32[2048, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%ne_4, %div_1, %full_default_8), kwargs = {})
#   %mul_18 : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%where_self, %where_5), kwargs = {})
#   %sub_5 : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mm, %amax), kwargs = {})
#   %log : Tensor "f32[2048, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.log.default](args = (%sum_1,), kwargs = {})
#   %sub_6 : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%sub_5, %log), kwargs = {})
#   %exp_1 : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%sub_6,), kwargs = {})
#   %sum_4 : Tensor "f32[2048, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_18, [1], True), kwargs = {})
#   %mul_19 : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%exp_1, %sum_4), kwargs = {})
#   %sub_7 : Tensor "f32[2048, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_18, %mul_19), kwargs = {})
#   return %sum_4,%sub_7
triton_per_fused__log_softmax__log_softmax_backward_data_arange_eq_expand_nll_loss_backward_scalar_tensor_view_where_0 = async_compile.triton('triton_per_fused__log_softmax__log_softmax_backward_data_arange_eq_expand_nll_loss_backward_scalar_tensor_view_where_0', '''
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__log_softmax__log_softmax_backward_data_arange_eq_expand_nll_loss_backward_scalar_tensor_view_where_0', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 32768, 'r0_': 12582912}}
)
@triton.jit
def triton_per_fused__log_softmax__log_softmax_backward_data_arange_eq_expand_nll_loss_backward_scalar_tensor_view_where_0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp25 = tl_math.log(tmp24)
    tmp26 = tmp23 - tmp25
    tmp27 = libdevice.exp(tmp26)
    tmp28 = tmp27 * tmp20
    tmp29 = tmp16 - tmp28
    tl.store(in_out_ptr0 + (r0_1 + 512*x0), tmp29, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/oj/cojiamu27rjk4zrqxjjn52amm32iacbmxutdd5w6ucybhjsq45hn.py
# Topologically Sorted Source Nodes: [view_32, inputs_embeds, position_ids_1, position_embeds, hidden_states, x_3, hidden_states_3, x_7, hidden_states_7, x_11, hidden_states_9, x_15, hidden_states_13, sub_8, hidden_states_14, mul_20, mul_21, mul_22, sum_5, mul_23, sum_6, mul_24, sub_9, sub_10, div_2, mul_25, sub_12, hidden_states_10, mul_36], Original ATen: [aten.view, aten.embedding, aten.unsqueeze, aten.add, aten.native_layer_norm_backward, aten.native_layer_norm]
# Source node to ATen node mapping:
#   div_2 => div_2
#   hidden_states => add_1
#   hidden_states_10 => add_15, rsqrt_3
#   hidden_states_13 => add_19
#   hidden_states_14 => add_20, rsqrt_4
#   hidden_states_3 => add_6
#   hidden_states_7 => add_11
#   hidden_states_9 => add_14
#   inputs_embeds => embedding
#   mul_20 => mul_20
#   mul_21 => mul_21
#   mul_22 => mul_22
#   mul_23 => mul_23
#   mul_24 => mul_24
#   mul_25 => mul_25
#   mul_36 => mul_36
#   position_embeds => embedding_1
#   position_ids_1 => unsqueeze
#   sub_10 => sub_10
#   sub_12 => sub_12
#   sub_8 => sub_8
#   sub_9 => sub_9
#   sum_5 => sum_5
#   sum_6 => sum_6
#   view_32 => view_32
#   x_11 => view_20
#   x_15 => view_24
#   x_3 => view_8
#   x_7 => view_12
# Graph fragment:
#   %addmm_1 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=addmm_1]
#   %primals_1 : Tensor "i64[8, 256][256, 1]cuda:0" = PlaceHolder[target=primals_1]
#   %primals_2 : Tensor "f32[512, 64][64, 1]cuda:0" = PlaceHolder[target=primals_2]
#   %add : Tensor "i64[256][1]cuda:0" = PlaceHolder[target=add]
#   %primals_3 : Tensor "f32[256, 64][64, 1]cuda:0" = PlaceHolder[target=primals_3]
#   %addmm_5 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=addmm_5]
#   %add_6 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_6]
#   %addmm_3 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=addmm_3]
#   %addmm_7 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=addmm_7]
#   %getitem_23 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_23]
#   %getitem_22 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_22]
#   %getitem_21 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_21]
#   %getitem_20 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_20]
#   %mm_2 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_2]
#   %primals_28 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_28]
#   %mul_20 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=mul_20]
#   %sum_5 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_5]
#   %sum_6 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_6]
#   %view_32 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_2, [8, 256, 64]), kwargs = {})
#   %embedding : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%primals_2, %primals_1), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %embedding_1 : Tensor "f32[1, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%primals_3, %unsqueeze), kwargs = {})
#   %add_1 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %view_8 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_1, [8, 256, 64]), kwargs = {})
#   %add_6 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_8, %add_1), kwargs = {})
#   %view_12 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_3, [8, 256, 64]), kwargs = {})
#   %add_11 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_6, %view_12), kwargs = {})
#   %view_20 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_5, [8, 256, 64]), kwargs = {})
#   %add_14 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_20, %add_11), kwargs = {})
#   %view_24 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_7, [8, 256, 64]), kwargs = {})
#   %add_19 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_14, %view_24), kwargs = {})
#   %sub_8 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_19, %getitem_23), kwargs = {})
#   %add_20 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_22, 1e-05), kwargs = {})
#   %rsqrt_4 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_20,), kwargs = {})
#   %mul_20 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_8, %rsqrt_4), kwargs = {})
#   %mul_21 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_32, %primals_28), kwargs = {})
#   %mul_22 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_21, 64), kwargs = {})
#   %sum_5 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_21, [2], True), kwargs = {})
#   %mul_23 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_21, %mul_20), kwargs = {})
#   %sum_6 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_23, [2], True), kwargs = {})
#   %mul_24 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_20, %sum_6), kwargs = {})
#   %sub_9 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_22, %sum_5), kwargs = {})
#   %sub_10 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%sub_9, %mul_24), kwargs = {})
#   %div_2 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%rsqrt_4, 64), kwargs = {})
#   %mul_25 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_2, %sub_10), kwargs = {})
#   %sub_12 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_14, %getitem_21), kwargs = {})
#   %add_15 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_20, 1e-05), kwargs = {})
#   %rsqrt_3 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_15,), kwargs = {})
#   %mul_36 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_12, %rsqrt_3), kwargs = {})
#   return %add_6,%mul_20,%mul_36,%sum_5,%sum_6,%mul_25
triton_per_fused_add_embedding_native_layer_norm_native_layer_norm_backward_unsqueeze_view_1 = async_compile.triton('triton_per_fused_add_embedding_native_layer_norm_native_layer_norm_backward_unsqueeze_view_1', '''
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
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_out_ptr1': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*i64', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'in_ptr9': '*fp32', 'in_ptr10': '*fp32', 'in_ptr11': '*fp32', 'out_ptr0': '*fp32', 'out_ptr3': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]], (14,): [['tt.divisibility', 16]], (15,): [['tt.divisibility', 16]], (16,): [['tt.divisibility', 16]], (17,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_embedding_native_layer_norm_native_layer_norm_backward_unsqueeze_view_1', 'mutated_arg_names': ['in_out_ptr0', 'in_out_ptr1'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 12, 'num_store': 4, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 51200, 'r0_': 6816000}}
)
@triton.jit
def triton_per_fused_add_embedding_native_layer_norm_native_layer_norm_backward_unsqueeze_view_1(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, in_ptr9, in_ptr10, in_ptr11, out_ptr0, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    r0_2 = r0_index
    x3 = xindex
    x0 = (xindex % 256)
    tmp0 = tl.load(in_out_ptr0 + (r0_2 + 64*x3), xmask, other=0.0)
    tmp1 = tl.load(in_ptr0 + (x3), xmask, eviction_policy='evict_last')
    tmp8 = tl.load(in_ptr2 + (x0), xmask, eviction_policy='evict_last')
    tmp17 = tl.load(in_ptr4 + (r0_2 + 64*x3), xmask, other=0.0)
    tmp18 = tl.load(in_ptr5 + (r0_2 + 64*x3), xmask, other=0.0)
    tmp21 = tl.load(in_out_ptr1 + (r0_2 + 64*x3), xmask, other=0.0)
    tmp23 = tl.load(in_ptr6 + (x3), xmask, eviction_policy='evict_last')
    tmp25 = tl.load(in_ptr7 + (x3), xmask, eviction_policy='evict_last')
    tmp30 = tl.load(in_ptr8 + (x3), xmask, eviction_policy='evict_last')
    tmp32 = tl.load(in_ptr9 + (x3), xmask, eviction_policy='evict_last')
    tmp36 = tl.load(in_ptr10 + (r0_2 + 64*x3), xmask, other=0.0)
    tmp37 = tl.load(in_ptr11 + (r0_2), None, eviction_policy='evict_last')
    tmp2 = tl.full([1, 1], 512, tl.int32)
    tmp3 = tmp1 + tmp2
    tmp4 = tmp1 < 0
    tmp5 = tl.where(tmp4, tmp3, tmp1)
    tl.device_assert(((0 <= tmp5) & (tmp5 < 512)) | ~(xmask), "index out of bounds: 0 <= tmp5 < 512")
    tmp7 = tl.load(in_ptr1 + (r0_2 + 64*tmp5), xmask, other=0.0)
    tmp9 = tl.full([1, 1], 256, tl.int32)
    tmp10 = tmp8 + tmp9
    tmp11 = tmp8 < 0
    tmp12 = tl.where(tmp11, tmp10, tmp8)
    tl.device_assert(((0 <= tmp12) & (tmp12 < 256)) | ~(xmask), "index out of bounds: 0 <= tmp12 < 256")
    tmp14 = tl.load(in_ptr3 + (r0_2 + 64*tmp12), xmask, other=0.0)
    tmp15 = tmp7 + tmp14
    tmp16 = tmp0 + tmp15
    tmp19 = tmp16 + tmp18
    tmp20 = tmp17 + tmp19
    tmp22 = tmp20 + tmp21
    tmp24 = tmp22 - tmp23
    tmp26 = tl.full([1, 1], 1e-05, tl.float32)
    tmp27 = tmp25 + tmp26
    tmp28 = libdevice.rsqrt(tmp27)
    tmp29 = tmp24 * tmp28
    tmp31 = tmp20 - tmp30
    tmp33 = tmp32 + tmp26
    tmp34 = libdevice.rsqrt(tmp33)
    tmp35 = tmp31 * tmp34
    tmp38 = tmp36 * tmp37
    tmp39 = tl.broadcast_to(tmp38, [XBLOCK, R0_BLOCK])
    tmp41 = tl.where(xmask, tmp39, 0)
    tmp42 = tl.sum(tmp41, 1)[:, None].to(tl.float32)
    tmp43 = tmp38 * tmp29
    tmp44 = tl.broadcast_to(tmp43, [XBLOCK, R0_BLOCK])
    tmp46 = tl.where(xmask, tmp44, 0)
    tmp47 = tl.sum(tmp46, 1)[:, None].to(tl.float32)
    tmp48 = tl.full([1, 1], 0.015625, tl.float32)
    tmp49 = tmp28 * tmp48
    tmp50 = tl.full([1, 1], 64.0, tl.float32)
    tmp51 = tmp38 * tmp50
    tmp52 = tmp51 - tmp42
    tmp53 = tmp29 * tmp47
    tmp54 = tmp52 - tmp53
    tmp55 = tmp49 * tmp54
    tl.store(in_out_ptr0 + (r0_2 + 64*x3), tmp16, xmask)
    tl.store(in_out_ptr1 + (r0_2 + 64*x3), tmp29, xmask)
    tl.store(out_ptr0 + (r0_2 + 64*x3), tmp35, xmask)
    tl.store(out_ptr3 + (r0_2 + 64*x3), tmp55, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/kh/ckhgvvx5ubtocnauoi52uo4jo2fvbkcusg73vehlthowe76v4lgl.py
# Topologically Sorted Source Nodes: [view_32, mul_26, sum_7, sum_8], Original ATen: [aten.view, aten.native_layer_norm_backward]
# Source node to ATen node mapping:
#   mul_26 => mul_26
#   sum_7 => sum_7
#   sum_8 => sum_8
#   view_32 => view_32
# Graph fragment:
#   %mm_2 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_2]
#   %mul_20 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=mul_20]
#   %view_32 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_2, [8, 256, 64]), kwargs = {})
#   %mul_26 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_32, %mul_20), kwargs = {})
#   %sum_7 : Tensor "f32[64][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_26, [0, 1]), kwargs = {})
#   %sum_8 : Tensor "f32[64][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_32, [0, 1]), kwargs = {})
#   return %buf8,%buf10
triton_red_fused_native_layer_norm_backward_view_2 = async_compile.triton('triton_red_fused_native_layer_norm_backward_view_2', '''
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
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_native_layer_norm_backward_view_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1064960, 'r0_': 0}}
)
@triton.jit
def triton_red_fused_native_layer_norm_backward_view_2(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
    _tmp4 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    _tmp7 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp2 = tmp0 * tmp1
        tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp5 = _tmp4 + tmp3
        _tmp4 = tl.where(r0_mask & xmask, tmp5, _tmp4)
        tmp6 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp8 = _tmp7 + tmp6
        _tmp7 = tl.where(r0_mask & xmask, tmp8, _tmp7)
    tmp4 = tl.sum(_tmp4, 1)[:, None]
    tmp7 = tl.sum(_tmp7, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp4, xmask)
    tl.store(out_ptr1 + (x3), tmp7, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/6j/c6jfqfspmxpmb2gm3yk5r3irpol3seb3ja3itdgytnhsw3mr6s4k.py
# Topologically Sorted Source Nodes: [view_32, mul_26, sum_7], Original ATen: [aten.view, aten.native_layer_norm_backward]
# Source node to ATen node mapping:
#   mul_26 => mul_26
#   sum_7 => sum_7
#   view_32 => view_32
# Graph fragment:
#   %buf8 : Tensor "f32[64, 16][1, 64]cuda:0" = PlaceHolder[target=buf8]
#   %view_32 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_2, [8, 256, 64]), kwargs = {})
#   %mul_26 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_32, %mul_20), kwargs = {})
#   %sum_7 : Tensor "f32[64][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_26, [0, 1]), kwargs = {})
#   return %sum_7
triton_per_fused_native_layer_norm_backward_view_3 = async_compile.triton('triton_per_fused_native_layer_norm_backward_view_3', '''
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_native_layer_norm_backward_view_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 4608, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_native_layer_norm_backward_view_3(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
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


# kernel path: /tmp/torchinductor_root/lb/clbratxkhshex3kgabycoe7i7bpf7cvrazkkory5smf7kmkshsx4.py
# Topologically Sorted Source Nodes: [view_34, sum_9], Original ATen: [aten.view, aten.sum]
# Source node to ATen node mapping:
#   sum_9 => sum_9
#   view_34 => view_34
# Graph fragment:
#   %mul_25 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=mul_25]
#   %view_34 : Tensor "f32[2048, 64][64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mul_25, [2048, 64]), kwargs = {})
#   %sum_9 : Tensor "f32[1, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_34, [0], True), kwargs = {})
#   return %buf14
triton_red_fused_sum_view_4 = async_compile.triton('triton_red_fused_sum_view_4', '''
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
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_sum_view_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 532480, 'r0_': 0}}
)
@triton.jit
def triton_red_fused_sum_view_4(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = _tmp2 + tmp1
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = tl.sum(_tmp2, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp2, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/e6/ce6tnsdaavx3ruayjte6pkhjbou5sjfkmckswmp2eucfe2qcah47.py
# Topologically Sorted Source Nodes: [view_36, x_13, mul_4, mul_27, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, mul_28, mul_29, sub_11, mul_30, mul_31, mul_32, pow_3, mul_33, mul_34, add_22, mul_35, add_23], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.tanh_backward]
# Source node to ATen node mapping:
#   add_10 => add_18
#   add_22 => add_22
#   add_23 => add_23
#   add_9 => add_17
#   mul_27 => mul_27
#   mul_28 => mul_28
#   mul_29 => mul_29
#   mul_30 => mul_30
#   mul_31 => mul_31
#   mul_32 => mul_32
#   mul_33 => mul_33
#   mul_34 => mul_34
#   mul_35 => mul_35
#   mul_4 => mul_12
#   mul_5 => mul_13
#   mul_6 => mul_14
#   pow_2 => pow_2
#   pow_3 => pow_3
#   sub_11 => sub_11
#   tanh_1 => tanh_1
#   view_36 => view_36
#   x_13 => view_22
# Graph fragment:
#   %mm_3 : Tensor "f32[2048, 256][256, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %addmm_6 : Tensor "f32[2048, 256][256, 1]cuda:0" = PlaceHolder[target=addmm_6]
#   %view_36 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_3, [8, 256, 256]), kwargs = {})
#   %view_22 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_6, [8, 256, 256]), kwargs = {})
#   %mul_12 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_22, 0.5), kwargs = {})
#   %mul_27 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_36, %mul_12), kwargs = {})
#   %pow_2 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%view_22, 3.0), kwargs = {})
#   %mul_13 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%pow_2, 0.044715), kwargs = {})
#   %add_17 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_22, %mul_13), kwargs = {})
#   %mul_14 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_17, 0.7978845608028654), kwargs = {})
#   %tanh_1 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.tanh.default](args = (%mul_14,), kwargs = {})
#   %add_18 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%tanh_1, 1.0), kwargs = {})
#   %mul_28 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_36, %add_18), kwargs = {})
#   %mul_29 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%tanh_1, %tanh_1), kwargs = {})
#   %sub_11 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (1, %mul_29), kwargs = {})
#   %mul_30 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_27, %sub_11), kwargs = {})
#   %mul_31 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_30, 0.7978845608028654), kwargs = {})
#   %mul_32 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_31, 0.044715), kwargs = {})
#   %pow_3 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%view_22, 2.0), kwargs = {})
#   %mul_33 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%pow_3, 3.0), kwargs = {})
#   %mul_34 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_32, %mul_33), kwargs = {})
#   %add_22 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_31, %mul_34), kwargs = {})
#   %mul_35 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_28, 0.5), kwargs = {})
#   %add_23 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_22, %mul_35), kwargs = {})
#   return %add_23
triton_poi_fused_add_mul_pow_tanh_tanh_backward_view_5 = async_compile.triton('triton_poi_fused_add_mul_pow_tanh_tanh_backward_view_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 524288}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_mul_pow_tanh_tanh_backward_view_5', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 8388608}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_mul_pow_tanh_tanh_backward_view_5(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 524288
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), None)
    tmp1 = tl.load(in_ptr0 + (x0), None)
    tmp2 = tl.full([1], 0.5, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tmp0 * tmp3
    tmp5 = tmp1 * tmp1
    tmp6 = tmp5 * tmp1
    tmp7 = tl.full([1], 0.044715, tl.float32)
    tmp8 = tmp6 * tmp7
    tmp9 = tmp1 + tmp8
    tmp10 = tl.full([1], 0.7978845608028654, tl.float32)
    tmp11 = tmp9 * tmp10
    tmp12 = libdevice.tanh(tmp11)
    tmp13 = tmp12 * tmp12
    tmp14 = tl.full([1], 1.0, tl.float32)
    tmp15 = tmp14 - tmp13
    tmp16 = tmp4 * tmp15
    tmp17 = tmp16 * tmp10
    tmp18 = tmp17 * tmp7
    tmp19 = tl.full([1], 3.0, tl.float32)
    tmp20 = tmp5 * tmp19
    tmp21 = tmp18 * tmp20
    tmp22 = tmp17 + tmp21
    tmp23 = tmp12 + tmp14
    tmp24 = tmp0 * tmp23
    tmp25 = tmp24 * tmp2
    tmp26 = tmp22 + tmp25
    tl.store(in_out_ptr0 + (x0), tmp26, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/gk/cgkfilqkb23bevu6vr3egygqd3plxzkjpcfju3yc5vkrxkcwiqr7.py
# Topologically Sorted Source Nodes: [view_36, x_13, mul_4, mul_27, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, mul_28, mul_29, sub_11, mul_30, mul_31, mul_32, pow_3, mul_33, mul_34, add_22, mul_35, add_23, view_37, sum_10], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.tanh_backward, aten.sum]
# Source node to ATen node mapping:
#   add_10 => add_18
#   add_22 => add_22
#   add_23 => add_23
#   add_9 => add_17
#   mul_27 => mul_27
#   mul_28 => mul_28
#   mul_29 => mul_29
#   mul_30 => mul_30
#   mul_31 => mul_31
#   mul_32 => mul_32
#   mul_33 => mul_33
#   mul_34 => mul_34
#   mul_35 => mul_35
#   mul_4 => mul_12
#   mul_5 => mul_13
#   mul_6 => mul_14
#   pow_2 => pow_2
#   pow_3 => pow_3
#   sub_11 => sub_11
#   sum_10 => sum_10
#   tanh_1 => tanh_1
#   view_36 => view_36
#   view_37 => view_37
#   x_13 => view_22
# Graph fragment:
#   %add_23 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0" = PlaceHolder[target=add_23]
#   %view_36 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_3, [8, 256, 256]), kwargs = {})
#   %view_22 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_6, [8, 256, 256]), kwargs = {})
#   %mul_12 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_22, 0.5), kwargs = {})
#   %mul_27 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_36, %mul_12), kwargs = {})
#   %pow_2 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%view_22, 3.0), kwargs = {})
#   %mul_13 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%pow_2, 0.044715), kwargs = {})
#   %add_17 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_22, %mul_13), kwargs = {})
#   %mul_14 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_17, 0.7978845608028654), kwargs = {})
#   %tanh_1 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.tanh.default](args = (%mul_14,), kwargs = {})
#   %add_18 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%tanh_1, 1.0), kwargs = {})
#   %mul_28 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_36, %add_18), kwargs = {})
#   %mul_29 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%tanh_1, %tanh_1), kwargs = {})
#   %sub_11 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (1, %mul_29), kwargs = {})
#   %mul_30 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_27, %sub_11), kwargs = {})
#   %mul_31 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_30, 0.7978845608028654), kwargs = {})
#   %mul_32 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_31, 0.044715), kwargs = {})
#   %pow_3 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%view_22, 2.0), kwargs = {})
#   %mul_33 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%pow_3, 3.0), kwargs = {})
#   %mul_34 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_32, %mul_33), kwargs = {})
#   %add_22 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_31, %mul_34), kwargs = {})
#   %mul_35 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_28, 0.5), kwargs = {})
#   %add_23 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_22, %mul_35), kwargs = {})
#   %view_37 : Tensor "f32[2048, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%add_23, [2048, 256]), kwargs = {})
#   %sum_10 : Tensor "f32[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_37, [0], True), kwargs = {})
#   return %buf19
triton_red_fused_add_mul_pow_sum_tanh_tanh_backward_view_6 = async_compile.triton('triton_red_fused_add_mul_pow_sum_tanh_tanh_backward_view_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 4096, 'r0_': 128},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_add_mul_pow_sum_tanh_tanh_backward_view_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 2129920, 'r0_': 0}}
)
@triton.jit
def triton_red_fused_add_mul_pow_sum_tanh_tanh_backward_view_6(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 256)
    x1 = xindex // 256
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 256*r0_2 + 32768*x1), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = _tmp2 + tmp1
        _tmp2 = tl.where(r0_mask, tmp3, _tmp2)
    tmp2 = tl.sum(_tmp2, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp2, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/rv/crvp4uuff25nbwc2ajdthq6qnbrqjzm6qd4awtsrpegm2i4wz4ei.py
# Topologically Sorted Source Nodes: [view_36, x_13, mul_4, mul_27, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, mul_28, mul_29, sub_11, mul_30, mul_31, mul_32, pow_3, mul_33, mul_34, add_22, mul_35, add_23, view_37, sum_10], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.tanh_backward, aten.sum]
# Source node to ATen node mapping:
#   add_10 => add_18
#   add_22 => add_22
#   add_23 => add_23
#   add_9 => add_17
#   mul_27 => mul_27
#   mul_28 => mul_28
#   mul_29 => mul_29
#   mul_30 => mul_30
#   mul_31 => mul_31
#   mul_32 => mul_32
#   mul_33 => mul_33
#   mul_34 => mul_34
#   mul_35 => mul_35
#   mul_4 => mul_12
#   mul_5 => mul_13
#   mul_6 => mul_14
#   pow_2 => pow_2
#   pow_3 => pow_3
#   sub_11 => sub_11
#   sum_10 => sum_10
#   tanh_1 => tanh_1
#   view_36 => view_36
#   view_37 => view_37
#   x_13 => view_22
# Graph fragment:
#   %buf19 : Tensor "f32[1, 256, 16][4096, 1, 256]cuda:0" = PlaceHolder[target=buf19]
#   %view_36 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_3, [8, 256, 256]), kwargs = {})
#   %view_22 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_6, [8, 256, 256]), kwargs = {})
#   %mul_12 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_22, 0.5), kwargs = {})
#   %mul_27 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_36, %mul_12), kwargs = {})
#   %pow_2 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%view_22, 3.0), kwargs = {})
#   %mul_13 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%pow_2, 0.044715), kwargs = {})
#   %add_17 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_22, %mul_13), kwargs = {})
#   %mul_14 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_17, 0.7978845608028654), kwargs = {})
#   %tanh_1 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.tanh.default](args = (%mul_14,), kwargs = {})
#   %add_18 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%tanh_1, 1.0), kwargs = {})
#   %mul_28 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_36, %add_18), kwargs = {})
#   %mul_29 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%tanh_1, %tanh_1), kwargs = {})
#   %sub_11 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (1, %mul_29), kwargs = {})
#   %mul_30 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_27, %sub_11), kwargs = {})
#   %mul_31 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_30, 0.7978845608028654), kwargs = {})
#   %mul_32 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_31, 0.044715), kwargs = {})
#   %pow_3 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%view_22, 2.0), kwargs = {})
#   %mul_33 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%pow_3, 3.0), kwargs = {})
#   %mul_34 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_32, %mul_33), kwargs = {})
#   %add_22 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_31, %mul_34), kwargs = {})
#   %mul_35 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_28, 0.5), kwargs = {})
#   %add_23 : Tensor "f32[8, 256, 256][65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_22, %mul_35), kwargs = {})
#   %view_37 : Tensor "f32[2048, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%add_23, [2048, 256]), kwargs = {})
#   %sum_10 : Tensor "f32[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_37, [0], True), kwargs = {})
#   return %sum_10
triton_per_fused_add_mul_pow_sum_tanh_tanh_backward_view_7 = async_compile.triton('triton_per_fused_add_mul_pow_sum_tanh_tanh_backward_view_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 16},
    reduction_hint=ReductionHint.OUTER_TINY,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_mul_pow_sum_tanh_tanh_backward_view_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 18432, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_add_mul_pow_sum_tanh_tanh_backward_view_7(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 256
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
    tmp0 = tl.load(in_ptr0 + (x0 + 256*r0_1), xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/zi/czi36euudp2s7azmgqtvjrcmcsff5vz3duc563kzh7fjijync47h.py
# Topologically Sorted Source Nodes: [view_39, hidden_states_10, mul_37, mul_38, sum_11, mul_39, sum_12, mul_40, sub_13, sub_14, div_3, mul_41, add_24], Original ATen: [aten.view, aten.native_layer_norm, aten.native_layer_norm_backward, aten.add]
# Source node to ATen node mapping:
#   add_24 => add_24
#   div_3 => div_3
#   hidden_states_10 => add_15, rsqrt_3
#   mul_37 => mul_37
#   mul_38 => mul_38
#   mul_39 => mul_39
#   mul_40 => mul_40
#   mul_41 => mul_41
#   sub_13 => sub_13
#   sub_14 => sub_14
#   sum_11 => sum_11
#   sum_12 => sum_12
#   view_39 => view_39
# Graph fragment:
#   %mm_5 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_5]
#   %primals_22 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_22]
#   %mul_36 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=mul_36]
#   %mul_25 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=mul_25]
#   %getitem_20 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_20]
#   %sum_11 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_11]
#   %sum_12 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_12]
#   %view_39 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_5, [8, 256, 64]), kwargs = {})
#   %add_15 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_20, 1e-05), kwargs = {})
#   %rsqrt_3 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_15,), kwargs = {})
#   %mul_37 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_39, %primals_22), kwargs = {})
#   %mul_38 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_37, 64), kwargs = {})
#   %sum_11 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_37, [2], True), kwargs = {})
#   %mul_39 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_37, %mul_36), kwargs = {})
#   %sum_12 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_39, [2], True), kwargs = {})
#   %mul_40 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_36, %sum_12), kwargs = {})
#   %sub_13 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_38, %sum_11), kwargs = {})
#   %sub_14 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%sub_13, %mul_40), kwargs = {})
#   %div_3 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%rsqrt_3, 64), kwargs = {})
#   %mul_41 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_3, %sub_14), kwargs = {})
#   %add_24 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_25, %mul_41), kwargs = {})
#   return %sum_11,%sum_12,%add_24
triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_8 = async_compile.triton('triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_8', '''
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
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_8', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 8192, 'r0_': 2621696}}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_8(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp1 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr2 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp13 = tl.load(in_out_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp14 = tl.load(in_ptr3 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 * tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.where(xmask, tmp3, 0)
    tmp6 = tl.sum(tmp5, 1)[:, None].to(tl.float32)
    tmp8 = tmp2 * tmp7
    tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
    tmp11 = tl.where(xmask, tmp9, 0)
    tmp12 = tl.sum(tmp11, 1)[:, None].to(tl.float32)
    tmp15 = tl.full([1, 1], 1e-05, tl.float32)
    tmp16 = tmp14 + tmp15
    tmp17 = libdevice.rsqrt(tmp16)
    tmp18 = tl.full([1, 1], 0.015625, tl.float32)
    tmp19 = tmp17 * tmp18
    tmp20 = tl.full([1, 1], 64.0, tl.float32)
    tmp21 = tmp2 * tmp20
    tmp22 = tmp21 - tmp6
    tmp23 = tmp7 * tmp12
    tmp24 = tmp22 - tmp23
    tmp25 = tmp19 * tmp24
    tmp26 = tmp13 + tmp25
    tl.store(in_out_ptr0 + (r0_1 + 64*x0), tmp26, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/6n/c6ncncmodb546cirqkjpwli4ehp2f3lhw736ioygpagcjmbwnfdd.py
# Topologically Sorted Source Nodes: [view_42, view_43, permute_19, arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, x_9, split_1, view_14, key_states_3, view_15, value_states_3, view_16, query_states_3, keys_1, values_1, attn_output_4, _scaled_dot_product_efficient_attention_backward], Original ATen: [aten.view, aten.transpose, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.split, aten.cat, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
# Source node to ATen node mapping:
#   _scaled_dot_product_efficient_attention_backward => _scaled_dot_product_efficient_attention_backward
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => le
#   attention_mask_1 => expand
#   attn_output_4 => expand_2, full_default_2, full_default_3, where_1
#   key_states_3 => permute_4
#   keys_1 => clone_5
#   kv_arange => add_3
#   kv_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   permute_19 => permute_19
#   q_arange => add_2
#   q_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   query_states_3 => permute_6
#   split_1 => split_1
#   value_states_3 => permute_5
#   values_1 => clone_6
#   view_14 => view_15
#   view_15 => view_16
#   view_16 => view_17
#   view_42 => view_42
#   view_43 => view_43
#   x_9 => view_14
# Graph fragment:
#   %addmm_4 : Tensor "f32[2048, 192][192, 1]cuda:0" = PlaceHolder[target=addmm_4]
#   %view_42 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_7, [8, 256, 64]), kwargs = {})
#   %view_43 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_42, [8, 256, 4, 16]), kwargs = {})
#   %permute_19 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_43, [0, 2, 1, 3]), kwargs = {})
#   %iota_3 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (256,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_2 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 0), kwargs = {})
#   %iota_4 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (256,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_3 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_1 : Tensor "i64[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[1, 1, 256][256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 1), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[1, 1, 256, 1][256, 256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_3, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 256][256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 1, 256][256, 256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 2), kwargs = {})
#   %le : Tensor "b8[1, 1, 256, 256][65536, 65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_6, %unsqueeze_3), kwargs = {})
#   %expand : Tensor "b8[8, 1, 256, 256][0, 65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%le, [8, -1, 256, 256]), kwargs = {})
#   %view_14 : Tensor "f32[8, 256, 192][49152, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_4, [8, 256, 192]), kwargs = {})
#   %split_1 : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_14, 64, 2), kwargs = {})
#   %view_15 : Tensor "f32[8, 256, 4, 16][49152, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_14, [8, 256, -1, 16]), kwargs = {})
#   %permute_4 : Tensor "f32[8, 4, 256, 16][49152, 16, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_15, [0, 2, 1, 3]), kwargs = {})
#   %view_16 : Tensor "f32[8, 256, 4, 16][49152, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_15, [8, 256, -1, 16]), kwargs = {})
#   %permute_5 : Tensor "f32[8, 4, 256, 16][49152, 16, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_16, [0, 2, 1, 3]), kwargs = {})
#   %view_17 : Tensor "f32[8, 256, 4, 16][49152, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_13, [8, 256, -1, 16]), kwargs = {})
#   %permute_6 : Tensor "f32[8, 4, 256, 16][49152, 16, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_17, [0, 2, 1, 3]), kwargs = {})
#   %clone_5 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_4,), kwargs = {})
#   %clone_6 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_5,), kwargs = {})
#   %full_default_2 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_3 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_1 : Tensor "f32[8, 1, 256, 256][65536, 65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_3, %full_default_2), kwargs = {})
#   %expand_2 : Tensor "f32[8, 4, 256, 256][65536, 0, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_1, [8, 4, 256, 256]), kwargs = {})
#   %_scaled_dot_product_efficient_attention_backward : [num_users=3] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention_backward.default](args = (%permute_19, %permute_6, %clone_5, %clone_6, %expand_2, %getitem_16, %getitem_17, %getitem_18, %getitem_19, 0.0, [True, True, True, False]), kwargs = {scale: 0.25})
#   return %buf33
triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_9 = async_compile.triton('triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_9', '''
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_9', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1572864}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_9(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 131072
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 64)
    x1 = xindex // 64
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (64 + x0 + 192*x1), None)
    tl.store(out_ptr0 + (x2), tmp0, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/bu/cbuphh4iqjip2xmhofjkzhr3mvudcgdq3exwcuidp3uyq5vcvcve.py
# Topologically Sorted Source Nodes: [view_42, view_43, permute_19, arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, x_9, split_1, view_14, key_states_3, view_15, value_states_3, view_16, query_states_3, keys_1, values_1, attn_output_4, _scaled_dot_product_efficient_attention_backward], Original ATen: [aten.view, aten.transpose, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.split, aten.cat, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
# Source node to ATen node mapping:
#   _scaled_dot_product_efficient_attention_backward => _scaled_dot_product_efficient_attention_backward
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => le
#   attention_mask_1 => expand
#   attn_output_4 => expand_2, full_default_2, full_default_3, where_1
#   key_states_3 => permute_4
#   keys_1 => clone_5
#   kv_arange => add_3
#   kv_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   permute_19 => permute_19
#   q_arange => add_2
#   q_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   query_states_3 => permute_6
#   split_1 => split_1
#   value_states_3 => permute_5
#   values_1 => clone_6
#   view_14 => view_15
#   view_15 => view_16
#   view_16 => view_17
#   view_42 => view_42
#   view_43 => view_43
#   x_9 => view_14
# Graph fragment:
#   %addmm_4 : Tensor "f32[2048, 192][192, 1]cuda:0" = PlaceHolder[target=addmm_4]
#   %view_42 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_7, [8, 256, 64]), kwargs = {})
#   %view_43 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_42, [8, 256, 4, 16]), kwargs = {})
#   %permute_19 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_43, [0, 2, 1, 3]), kwargs = {})
#   %iota_3 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (256,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_2 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 0), kwargs = {})
#   %iota_4 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (256,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_3 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_1 : Tensor "i64[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[1, 1, 256][256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 1), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[1, 1, 256, 1][256, 256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_3, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 256][256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 1, 256][256, 256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 2), kwargs = {})
#   %le : Tensor "b8[1, 1, 256, 256][65536, 65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_6, %unsqueeze_3), kwargs = {})
#   %expand : Tensor "b8[8, 1, 256, 256][0, 65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%le, [8, -1, 256, 256]), kwargs = {})
#   %view_14 : Tensor "f32[8, 256, 192][49152, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_4, [8, 256, 192]), kwargs = {})
#   %split_1 : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_14, 64, 2), kwargs = {})
#   %view_15 : Tensor "f32[8, 256, 4, 16][49152, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_14, [8, 256, -1, 16]), kwargs = {})
#   %permute_4 : Tensor "f32[8, 4, 256, 16][49152, 16, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_15, [0, 2, 1, 3]), kwargs = {})
#   %view_16 : Tensor "f32[8, 256, 4, 16][49152, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_15, [8, 256, -1, 16]), kwargs = {})
#   %permute_5 : Tensor "f32[8, 4, 256, 16][49152, 16, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_16, [0, 2, 1, 3]), kwargs = {})
#   %view_17 : Tensor "f32[8, 256, 4, 16][49152, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_13, [8, 256, -1, 16]), kwargs = {})
#   %permute_6 : Tensor "f32[8, 4, 256, 16][49152, 16, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_17, [0, 2, 1, 3]), kwargs = {})
#   %clone_5 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_4,), kwargs = {})
#   %clone_6 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_5,), kwargs = {})
#   %full_default_2 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_3 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_1 : Tensor "f32[8, 1, 256, 256][65536, 65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_3, %full_default_2), kwargs = {})
#   %expand_2 : Tensor "f32[8, 4, 256, 256][65536, 0, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_1, [8, 4, 256, 256]), kwargs = {})
#   %_scaled_dot_product_efficient_attention_backward : [num_users=3] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention_backward.default](args = (%permute_19, %permute_6, %clone_5, %clone_6, %expand_2, %getitem_16, %getitem_17, %getitem_18, %getitem_19, 0.0, [True, True, True, False]), kwargs = {scale: 0.25})
#   return %buf34
triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_10 = async_compile.triton('triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_10', '''
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_10', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1572864}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_10(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 131072
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 64)
    x1 = xindex // 64
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (128 + x0 + 192*x1), None)
    tl.store(out_ptr0 + (x2), tmp0, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/nr/cnrlbozaxb5kz4slxdbawwplqxtpo2i6r5annsdkxphbyc26nfa6.py
# Topologically Sorted Source Nodes: [view_42, view_43, permute_19, arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, x_9, split_1, view_14, key_states_3, view_15, value_states_3, view_16, query_states_3, keys_1, values_1, attn_output_4, _scaled_dot_product_efficient_attention_backward], Original ATen: [aten.view, aten.transpose, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.split, aten.cat, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
# Source node to ATen node mapping:
#   _scaled_dot_product_efficient_attention_backward => _scaled_dot_product_efficient_attention_backward
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => le
#   attention_mask_1 => expand
#   attn_output_4 => expand_2, full_default_2, full_default_3, where_1
#   key_states_3 => permute_4
#   keys_1 => clone_5
#   kv_arange => add_3
#   kv_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   permute_19 => permute_19
#   q_arange => add_2
#   q_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   query_states_3 => permute_6
#   split_1 => split_1
#   value_states_3 => permute_5
#   values_1 => clone_6
#   view_14 => view_15
#   view_15 => view_16
#   view_16 => view_17
#   view_42 => view_42
#   view_43 => view_43
#   x_9 => view_14
# Graph fragment:
#   %view_42 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_7, [8, 256, 64]), kwargs = {})
#   %view_43 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_42, [8, 256, 4, 16]), kwargs = {})
#   %permute_19 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_43, [0, 2, 1, 3]), kwargs = {})
#   %iota_3 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (256,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_2 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 0), kwargs = {})
#   %iota_4 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (256,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_3 : Tensor "i64[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_1 : Tensor "i64[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[1, 1, 256][256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 1), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[1, 1, 256, 1][256, 256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_3, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 256][256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 1, 256][256, 256, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 2), kwargs = {})
#   %le : Tensor "b8[1, 1, 256, 256][65536, 65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_6, %unsqueeze_3), kwargs = {})
#   %expand : Tensor "b8[8, 1, 256, 256][0, 65536, 256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%le, [8, -1, 256, 256]), kwargs = {})
#   %view_14 : Tensor "f32[8, 256, 192][49152, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_4, [8, 256, 192]), kwargs = {})
#   %split_1 : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_14, 64, 2), kwargs = {})
#   %view_15 : Tensor "f32[8, 256, 4, 16][49152, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_14, [8, 256, -1, 16]), kwargs = {})
#   %permute_4 : Tensor "f32[8, 4, 256, 16][49152, 16, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_15, [0, 2, 1, 3]), kwargs = {})
#   %view_16 : Tensor "f32[8, 256, 4, 16][49152, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_15, [8, 256, -1, 16]), kwargs = {})
#   %permute_5 : Tensor "f32[8, 4, 256, 16][49152, 16, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_16, [0, 2, 1, 3]), kwargs = {})
#   %view_17 : Tensor "f32[8, 256, 4, 16][49152, 192, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_13, [8, 256, -1, 16]), kwargs = {})
#   %permute_6 : Tensor "f32[8, 4, 256, 16][49152, 16, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_17, [0, 2, 1, 3]), kwargs = {})
#   %clone_5 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_4,), kwargs = {})
#   %clone_6 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_5,), kwargs = {})
#   %full_default_2 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_3 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_1 : Tensor "f32[8, 1, 256, 256][65536, 65536, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_3, %full_default_2), kwargs = {})
#   %expand_2 : Tensor "f32[8, 4, 256, 256][65536, 0, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_1, [8, 4, 256, 256]), kwargs = {})
#   %_scaled_dot_product_efficient_attention_backward : [num_users=3] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention_backward.default](args = (%permute_19, %permute_6, %clone_5, %clone_6, %expand_2, %getitem_16, %getitem_17, %getitem_18, %getitem_19, 0.0, [True, True, True, False]), kwargs = {scale: 0.25})
#   return %buf35
triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_11 = async_compile.triton('triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_11', '''
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_11', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 16777216}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_11(out_ptr0, xnumel, XBLOCK : tl.constexpr):
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


# kernel path: /tmp/torchinductor_root/rb/crbny6ohlirmq6oghxzahhmmyhpauvyyqltlx4mt5d2bgxmesaye.py
# Topologically Sorted Source Nodes: [permute_20, view_44, permute_21, view_45, permute_22, view_46, cat], Original ATen: [aten.transpose, aten.view, aten.cat]
# Source node to ATen node mapping:
#   cat => cat
#   permute_20 => permute_20
#   permute_21 => permute_21
#   permute_22 => permute_22
#   view_44 => view_44
#   view_45 => view_45
#   view_46 => view_46
# Graph fragment:
#   %getitem_24 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0" = PlaceHolder[target=getitem_24]
#   %getitem_25 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0" = PlaceHolder[target=getitem_25]
#   %getitem_26 : Tensor "f32[8, 4, 256, 16][16384, 16, 64, 1]cuda:0" = PlaceHolder[target=getitem_26]
#   %permute_20 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%getitem_24, [0, 2, 1, 3]), kwargs = {})
#   %view_44 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_20, [8, 256, 64]), kwargs = {})
#   %permute_21 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%getitem_26, [0, 2, 1, 3]), kwargs = {})
#   %view_45 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_21, [8, 256, 64]), kwargs = {})
#   %permute_22 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%getitem_25, [0, 2, 1, 3]), kwargs = {})
#   %view_46 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_22, [8, 256, 64]), kwargs = {})
#   %cat : Tensor "f32[8, 256, 192][49152, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%view_44, %view_46, %view_45], 2), kwargs = {})
#   return %cat
triton_poi_fused_cat_transpose_view_12 = async_compile.triton('triton_poi_fused_cat_transpose_view_12', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 524288}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_cat_transpose_view_12', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 4718592}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_cat_transpose_view_12(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 393216
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 192)
    x1 = xindex // 192
    x2 = xindex
    tmp0 = x0
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 64, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (64*x1 + (x0)), tmp4, eviction_policy='evict_last', other=0.0)
    tmp6 = tmp0 >= tmp3
    tmp7 = tl.full([1], 128, tl.int64)
    tmp8 = tmp0 < tmp7
    tmp9 = tmp6 & tmp8
    tmp10 = tl.load(in_ptr1 + (64*x1 + ((-64) + x0)), tmp9, eviction_policy='evict_last', other=0.0)
    tmp11 = tmp0 >= tmp7
    tmp12 = tl.full([1], 192, tl.int64)
    tmp13 = tmp0 < tmp12
    tmp14 = tl.load(in_ptr2 + (64*x1 + ((-128) + x0)), tmp11, eviction_policy='evict_last', other=0.0)
    tmp15 = tl.where(tmp9, tmp10, tmp14)
    tmp16 = tl.where(tmp4, tmp5, tmp15)
    tl.store(out_ptr0 + (x2), tmp16, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/j7/cj7f3xq3vtmn7bqpw4tzhji2p3fufuy7qbwqn5y6eopbxfesi3iq.py
# Topologically Sorted Source Nodes: [permute_20, view_44, permute_21, view_45, permute_22, view_46, cat, view_47, sum_16], Original ATen: [aten.transpose, aten.view, aten.cat, aten.sum]
# Source node to ATen node mapping:
#   cat => cat
#   permute_20 => permute_20
#   permute_21 => permute_21
#   permute_22 => permute_22
#   sum_16 => sum_16
#   view_44 => view_44
#   view_45 => view_45
#   view_46 => view_46
#   view_47 => view_47
# Graph fragment:
#   %cat : Tensor "f32[8, 256, 192][49152, 192, 1]cuda:0" = PlaceHolder[target=cat]
#   %permute_20 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%getitem_24, [0, 2, 1, 3]), kwargs = {})
#   %view_44 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_20, [8, 256, 64]), kwargs = {})
#   %permute_21 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%getitem_26, [0, 2, 1, 3]), kwargs = {})
#   %view_45 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_21, [8, 256, 64]), kwargs = {})
#   %permute_22 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%getitem_25, [0, 2, 1, 3]), kwargs = {})
#   %view_46 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_22, [8, 256, 64]), kwargs = {})
#   %cat : Tensor "f32[8, 256, 192][49152, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%view_44, %view_46, %view_45], 2), kwargs = {})
#   %view_47 : Tensor "f32[2048, 192][192, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%cat, [2048, 192]), kwargs = {})
#   %sum_16 : Tensor "f32[1, 192][192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_47, [0], True), kwargs = {})
#   return %buf43
triton_red_fused_cat_sum_transpose_view_13 = async_compile.triton('triton_red_fused_cat_sum_transpose_view_13', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 4096, 'r0_': 128},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_cat_sum_transpose_view_13', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1597440, 'r0_': 0}}
)
@triton.jit
def triton_red_fused_cat_sum_transpose_view_13(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 3072
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 192)
    x1 = xindex // 192
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 192*r0_2 + 24576*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = _tmp2 + tmp1
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = tl.sum(_tmp2, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp2, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/n7/cn7cj4ml4wvopw5gehpvtt24sv2nxszzdjgu5frilirsd2agxenn.py
# Topologically Sorted Source Nodes: [permute_20, view_44, permute_21, view_45, permute_22, view_46, cat, view_47, sum_16], Original ATen: [aten.transpose, aten.view, aten.cat, aten.sum]
# Source node to ATen node mapping:
#   cat => cat
#   permute_20 => permute_20
#   permute_21 => permute_21
#   permute_22 => permute_22
#   sum_16 => sum_16
#   view_44 => view_44
#   view_45 => view_45
#   view_46 => view_46
#   view_47 => view_47
# Graph fragment:
#   %buf43 : Tensor "f32[1, 192, 16][3072, 1, 192]cuda:0" = PlaceHolder[target=buf43]
#   %permute_20 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%getitem_24, [0, 2, 1, 3]), kwargs = {})
#   %view_44 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_20, [8, 256, 64]), kwargs = {})
#   %permute_21 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%getitem_26, [0, 2, 1, 3]), kwargs = {})
#   %view_45 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_21, [8, 256, 64]), kwargs = {})
#   %permute_22 : Tensor "f32[8, 256, 4, 16][16384, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%getitem_25, [0, 2, 1, 3]), kwargs = {})
#   %view_46 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_22, [8, 256, 64]), kwargs = {})
#   %cat : Tensor "f32[8, 256, 192][49152, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%view_44, %view_46, %view_45], 2), kwargs = {})
#   %view_47 : Tensor "f32[2048, 192][192, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%cat, [2048, 192]), kwargs = {})
#   %sum_16 : Tensor "f32[1, 192][192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_47, [0], True), kwargs = {})
#   return %sum_16
triton_per_fused_cat_sum_transpose_view_14 = async_compile.triton('triton_per_fused_cat_sum_transpose_view_14', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 16},
    reduction_hint=ReductionHint.OUTER_TINY,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_cat_sum_transpose_view_14', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 13824, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_cat_sum_transpose_view_14(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 192
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
    tmp0 = tl.load(in_ptr0 + (x0 + 192*r0_1), xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/jn/cjnwprodpsvylgux7a6lrs3bqzoru3usifecvgugggkv63hi7hp3.py
# Topologically Sorted Source Nodes: [x_7, hidden_states_7, view_49, sub_15, hidden_states_8, mul_43, mul_44, mul_45, sum_17, mul_46, sum_18, mul_47, sub_16, sub_17, div_4, mul_48, add_25], Original ATen: [aten.view, aten.add, aten.native_layer_norm_backward, aten.native_layer_norm]
# Source node to ATen node mapping:
#   add_25 => add_25
#   div_4 => div_4
#   hidden_states_7 => add_11
#   hidden_states_8 => add_12, rsqrt_2
#   mul_43 => mul_43
#   mul_44 => mul_44
#   mul_45 => mul_45
#   mul_46 => mul_46
#   mul_47 => mul_47
#   mul_48 => mul_48
#   sub_15 => sub_15
#   sub_16 => sub_16
#   sub_17 => sub_17
#   sum_17 => sum_17
#   sum_18 => sum_18
#   view_49 => view_49
#   x_7 => view_12
# Graph fragment:
#   %mm_9 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_9]
#   %primals_16 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_16]
#   %add_6 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_6]
#   %addmm_3 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=addmm_3]
#   %getitem_12 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_12]
#   %getitem_11 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_11]
#   %add_24 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_24]
#   %sum_17 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_17]
#   %sum_18 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_18]
#   %view_12 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_3, [8, 256, 64]), kwargs = {})
#   %add_11 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_6, %view_12), kwargs = {})
#   %view_49 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_9, [8, 256, 64]), kwargs = {})
#   %sub_15 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_11, %getitem_12), kwargs = {})
#   %add_12 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_11, 1e-05), kwargs = {})
#   %rsqrt_2 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_12,), kwargs = {})
#   %mul_43 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_15, %rsqrt_2), kwargs = {})
#   %mul_44 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_49, %primals_16), kwargs = {})
#   %mul_45 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_44, 64), kwargs = {})
#   %sum_17 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_44, [2], True), kwargs = {})
#   %mul_46 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_44, %mul_43), kwargs = {})
#   %sum_18 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_46, [2], True), kwargs = {})
#   %mul_47 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_43, %sum_18), kwargs = {})
#   %sub_16 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_45, %sum_17), kwargs = {})
#   %sub_17 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%sub_16, %mul_47), kwargs = {})
#   %div_4 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%rsqrt_2, 64), kwargs = {})
#   %mul_48 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_4, %sub_17), kwargs = {})
#   %add_25 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_24, %mul_48), kwargs = {})
#   return %sum_17,%sum_18,%add_25
triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_15 = async_compile.triton('triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_15', '''
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
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_15', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 7, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 16384, 'r0_': 3145984}}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_15(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp1 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr2 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp8 = tl.load(in_ptr3 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp10 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr5 + (x0), xmask, eviction_policy='evict_last')
    tmp22 = tl.load(in_out_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.where(xmask, tmp3, 0)
    tmp6 = tl.sum(tmp5, 1)[:, None].to(tl.float32)
    tmp9 = tmp7 + tmp8
    tmp11 = tmp9 - tmp10
    tmp13 = tl.full([1, 1], 1e-05, tl.float32)
    tmp14 = tmp12 + tmp13
    tmp15 = libdevice.rsqrt(tmp14)
    tmp16 = tmp11 * tmp15
    tmp17 = tmp2 * tmp16
    tmp18 = tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK])
    tmp20 = tl.where(xmask, tmp18, 0)
    tmp21 = tl.sum(tmp20, 1)[:, None].to(tl.float32)
    tmp23 = tl.full([1, 1], 0.015625, tl.float32)
    tmp24 = tmp15 * tmp23
    tmp25 = tl.full([1, 1], 64.0, tl.float32)
    tmp26 = tmp2 * tmp25
    tmp27 = tmp26 - tmp6
    tmp28 = tmp16 * tmp21
    tmp29 = tmp27 - tmp28
    tmp30 = tmp24 * tmp29
    tmp31 = tmp22 + tmp30
    tl.store(in_out_ptr0 + (r0_1 + 64*x0), tmp31, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ct/cctvo4vcz2qd67hcayu6jjibhu5sajfypqj3vyanu3lyyqephjh3.py
# Topologically Sorted Source Nodes: [x_7, hidden_states_7, view_49, sub_15, hidden_states_8, mul_43, mul_49, sum_19, sum_20, view_55, sub_19, hidden_states_4, mul_59, mul_65, sum_25, sum_26], Original ATen: [aten.view, aten.add, aten.native_layer_norm_backward, aten.native_layer_norm]
# Source node to ATen node mapping:
#   hidden_states_4 => add_7, rsqrt_1
#   hidden_states_7 => add_11
#   hidden_states_8 => add_12, rsqrt_2
#   mul_43 => mul_43
#   mul_49 => mul_49
#   mul_59 => mul_59
#   mul_65 => mul_65
#   sub_15 => sub_15
#   sub_19 => sub_19
#   sum_19 => sum_19
#   sum_20 => sum_20
#   sum_25 => sum_25
#   sum_26 => sum_26
#   view_49 => view_49
#   view_55 => view_55
#   x_7 => view_12
# Graph fragment:
#   %mm_9 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_9]
#   %add_6 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_6]
#   %addmm_3 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=addmm_3]
#   %getitem_12 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_12]
#   %getitem_11 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_11]
#   %mm_13 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_13]
#   %getitem_10 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_10]
#   %getitem_9 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_9]
#   %view_12 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_3, [8, 256, 64]), kwargs = {})
#   %add_11 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_6, %view_12), kwargs = {})
#   %view_49 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_9, [8, 256, 64]), kwargs = {})
#   %sub_15 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_11, %getitem_12), kwargs = {})
#   %add_12 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_11, 1e-05), kwargs = {})
#   %rsqrt_2 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_12,), kwargs = {})
#   %mul_43 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_15, %rsqrt_2), kwargs = {})
#   %mul_49 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_49, %mul_43), kwargs = {})
#   %sum_19 : Tensor "f32[64][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_49, [0, 1]), kwargs = {})
#   %sum_20 : Tensor "f32[64][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_49, [0, 1]), kwargs = {})
#   %view_55 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_13, [8, 256, 64]), kwargs = {})
#   %sub_19 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_6, %getitem_10), kwargs = {})
#   %add_7 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_9, 1e-05), kwargs = {})
#   %rsqrt_1 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_7,), kwargs = {})
#   %mul_59 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_19, %rsqrt_1), kwargs = {})
#   %mul_65 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_55, %mul_59), kwargs = {})
#   %sum_25 : Tensor "f32[64][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_65, [0, 1]), kwargs = {})
#   %sum_26 : Tensor "f32[64][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_55, [0, 1]), kwargs = {})
#   return %buf47,%buf49,%buf63,%buf65
triton_red_fused_add_native_layer_norm_native_layer_norm_backward_view_16 = async_compile.triton('triton_red_fused_add_native_layer_norm_native_layer_norm_backward_view_16', '''
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
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_add_native_layer_norm_native_layer_norm_backward_view_16', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 8, 'num_store': 4, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 2129920, 'r0_': 32768}}
)
@triton.jit
def triton_red_fused_add_native_layer_norm_native_layer_norm_backward_view_16(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, out_ptr0, out_ptr1, out_ptr2, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
    _tmp13 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    _tmp16 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    _tmp27 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    _tmp30 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp2 = tl.load(in_ptr2 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp4 = tl.load(in_ptr3 + (r0_2 + 128*x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp6 = tl.load(in_ptr4 + (r0_2 + 128*x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp18 = tl.load(in_ptr5 + (x0 + 64*r0_2 + 8192*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp19 = tl.load(in_ptr6 + (r0_2 + 128*x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp21 = tl.load(in_ptr7 + (r0_2 + 128*x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp3 = tmp1 + tmp2
        tmp5 = tmp3 - tmp4
        tmp7 = tl.full([1, 1], 1e-05, tl.float32)
        tmp8 = tmp6 + tmp7
        tmp9 = libdevice.rsqrt(tmp8)
        tmp10 = tmp5 * tmp9
        tmp11 = tmp0 * tmp10
        tmp12 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
        tmp14 = _tmp13 + tmp12
        _tmp13 = tl.where(r0_mask & xmask, tmp14, _tmp13)
        tmp15 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp17 = _tmp16 + tmp15
        _tmp16 = tl.where(r0_mask & xmask, tmp17, _tmp16)
        tmp20 = tmp1 - tmp19
        tmp22 = tmp21 + tmp7
        tmp23 = libdevice.rsqrt(tmp22)
        tmp24 = tmp20 * tmp23
        tmp25 = tmp18 * tmp24
        tmp26 = tl.broadcast_to(tmp25, [XBLOCK, R0_BLOCK])
        tmp28 = _tmp27 + tmp26
        _tmp27 = tl.where(r0_mask & xmask, tmp28, _tmp27)
        tmp29 = tl.broadcast_to(tmp18, [XBLOCK, R0_BLOCK])
        tmp31 = _tmp30 + tmp29
        _tmp30 = tl.where(r0_mask & xmask, tmp31, _tmp30)
    tmp13 = tl.sum(_tmp13, 1)[:, None]
    tmp16 = tl.sum(_tmp16, 1)[:, None]
    tmp27 = tl.sum(_tmp27, 1)[:, None]
    tmp30 = tl.sum(_tmp30, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp13, xmask)
    tl.store(out_ptr1 + (x3), tmp16, xmask)
    tl.store(out_ptr2 + (x3), tmp27, xmask)
    tl.store(out_ptr3 + (x3), tmp30, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/2p/c2proygcmhyp5vbqezh54hg6it4zdwnmn3trjmqbbr6vimbcpcgi.py
# Topologically Sorted Source Nodes: [view_55, sub_19, hidden_states_4, mul_59, mul_60, mul_61, sum_23, mul_62, sum_24, mul_63, sub_20, sub_21, div_5, mul_64, add_28], Original ATen: [aten.view, aten.native_layer_norm_backward, aten.native_layer_norm, aten.add]
# Source node to ATen node mapping:
#   add_28 => add_28
#   div_5 => div_5
#   hidden_states_4 => add_7, rsqrt_1
#   mul_59 => mul_59
#   mul_60 => mul_60
#   mul_61 => mul_61
#   mul_62 => mul_62
#   mul_63 => mul_63
#   mul_64 => mul_64
#   sub_19 => sub_19
#   sub_20 => sub_20
#   sub_21 => sub_21
#   sum_23 => sum_23
#   sum_24 => sum_24
#   view_55 => view_55
# Graph fragment:
#   %mm_13 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_13]
#   %primals_10 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_10]
#   %add_6 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_6]
#   %getitem_10 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_10]
#   %getitem_9 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_9]
#   %add_25 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_25]
#   %sum_23 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_23]
#   %sum_24 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_24]
#   %view_55 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_13, [8, 256, 64]), kwargs = {})
#   %sub_19 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_6, %getitem_10), kwargs = {})
#   %add_7 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_9, 1e-05), kwargs = {})
#   %rsqrt_1 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_7,), kwargs = {})
#   %mul_59 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_19, %rsqrt_1), kwargs = {})
#   %mul_60 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_55, %primals_10), kwargs = {})
#   %mul_61 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_60, 64), kwargs = {})
#   %sum_23 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_60, [2], True), kwargs = {})
#   %mul_62 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_60, %mul_59), kwargs = {})
#   %sum_24 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_62, [2], True), kwargs = {})
#   %mul_63 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_59, %sum_24), kwargs = {})
#   %sub_20 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_61, %sum_23), kwargs = {})
#   %sub_21 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%sub_20, %mul_63), kwargs = {})
#   %div_5 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%rsqrt_1, 64), kwargs = {})
#   %mul_64 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_5, %sub_21), kwargs = {})
#   %add_28 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_25, %mul_64), kwargs = {})
#   return %sum_23,%sum_24,%add_28
triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_17 = async_compile.triton('triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_17', '''
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
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_17', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 16384, 'r0_': 2621696}}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_17(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    tmp1 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr2 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp8 = tl.load(in_ptr3 + (x0), xmask, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp20 = tl.load(in_out_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.where(xmask, tmp3, 0)
    tmp6 = tl.sum(tmp5, 1)[:, None].to(tl.float32)
    tmp9 = tmp7 - tmp8
    tmp11 = tl.full([1, 1], 1e-05, tl.float32)
    tmp12 = tmp10 + tmp11
    tmp13 = libdevice.rsqrt(tmp12)
    tmp14 = tmp9 * tmp13
    tmp15 = tmp2 * tmp14
    tmp16 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
    tmp18 = tl.where(xmask, tmp16, 0)
    tmp19 = tl.sum(tmp18, 1)[:, None].to(tl.float32)
    tmp21 = tl.full([1, 1], 0.015625, tl.float32)
    tmp22 = tmp13 * tmp21
    tmp23 = tl.full([1, 1], 64.0, tl.float32)
    tmp24 = tmp2 * tmp23
    tmp25 = tmp24 - tmp6
    tmp26 = tmp14 * tmp19
    tmp27 = tmp25 - tmp26
    tmp28 = tmp22 * tmp27
    tmp29 = tmp20 + tmp28
    tl.store(in_out_ptr0 + (r0_1 + 64*x0), tmp29, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/36/c362jaut4mqytsghy4p542itu6r4q7p5aegpmbre3cijjx67bqv2.py
# Topologically Sorted Source Nodes: [full_default_12], Original ATen: [aten.embedding_dense_backward]
# Source node to ATen node mapping:
#   full_default_12 => full_default_12
# Graph fragment:
#   %full_default_12 : Tensor "f32[512, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([512, 64], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   return %index_put_1
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


# kernel path: /tmp/torchinductor_root/l2/cl2loq75huyalehrjph4n4lao6tssagwdh7qa5mvywwk3dglc4qj.py
# Topologically Sorted Source Nodes: [inputs_embeds, position_ids_1, position_embeds, hidden_states, view_65, sub_22, hidden_states_2, mul_66, mul_67, mul_68, sum_29, mul_69, sum_30, mul_70, sub_23, sub_24, div_6, mul_71, add_29, eq_1, unsqueeze_10, full_default_11, where_7, full_default_12, index_put_1], Original ATen: [aten.embedding, aten.unsqueeze, aten.add, aten.view, aten.native_layer_norm_backward, aten.native_layer_norm, aten.embedding_dense_backward]
# Source node to ATen node mapping:
#   add_29 => add_29
#   div_6 => div_6
#   eq_1 => eq_1
#   full_default_11 => full_default_11
#   full_default_12 => full_default_12
#   hidden_states => add_1
#   hidden_states_2 => add_4, rsqrt
#   index_put_1 => index_put_1
#   inputs_embeds => embedding
#   mul_66 => mul_66
#   mul_67 => mul_67
#   mul_68 => mul_68
#   mul_69 => mul_69
#   mul_70 => mul_70
#   mul_71 => mul_71
#   position_embeds => embedding_1
#   position_ids_1 => unsqueeze
#   sub_22 => sub_22
#   sub_23 => sub_23
#   sub_24 => sub_24
#   sum_29 => sum_29
#   sum_30 => sum_30
#   unsqueeze_10 => unsqueeze_10
#   view_65 => view_65
#   where_7 => where_7
# Graph fragment:
#   %primals_1 : Tensor "i64[8, 256][256, 1]cuda:0" = PlaceHolder[target=primals_1]
#   %primals_2 : Tensor "f32[512, 64][64, 1]cuda:0" = PlaceHolder[target=primals_2]
#   %add : Tensor "i64[256][1]cuda:0" = PlaceHolder[target=add]
#   %primals_3 : Tensor "f32[256, 64][64, 1]cuda:0" = PlaceHolder[target=primals_3]
#   %getitem_1 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem_1]
#   %getitem : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0" = PlaceHolder[target=getitem]
#   %mm_17 : Tensor "f32[2048, 64][64, 1]cuda:0" = PlaceHolder[target=mm_17]
#   %primals_4 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_4]
#   %mul_66 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=mul_66]
#   %add_28 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_28]
#   %sum_29 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_29]
#   %sum_30 : Tensor "f32[8, 256, 1][256, 1, 2048]cuda:0" = PlaceHolder[target=sum_30]
#   %add_29 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_29]
#   %index_put_1 : Tensor "f32[512, 64][64, 1]cuda:0" = PlaceHolder[target=index_put_1]
#   %embedding : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%primals_2, %primals_1), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %embedding_1 : Tensor "f32[1, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%primals_3, %unsqueeze), kwargs = {})
#   %add_1 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %view_65 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_17, [8, 256, 64]), kwargs = {})
#   %sub_22 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_1, %getitem_1), kwargs = {})
#   %add_4 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, 1e-05), kwargs = {})
#   %rsqrt : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %mul_66 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_22, %rsqrt), kwargs = {})
#   %mul_67 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_65, %primals_4), kwargs = {})
#   %mul_68 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_67, 64), kwargs = {})
#   %sum_29 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_67, [2], True), kwargs = {})
#   %mul_69 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_67, %mul_66), kwargs = {})
#   %sum_30 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_69, [2], True), kwargs = {})
#   %mul_70 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_66, %sum_30), kwargs = {})
#   %sub_23 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_68, %sum_29), kwargs = {})
#   %sub_24 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%sub_23, %mul_70), kwargs = {})
#   %div_6 : Tensor "f32[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%rsqrt, 64), kwargs = {})
#   %mul_71 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_6, %sub_24), kwargs = {})
#   %add_29 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_28, %mul_71), kwargs = {})
#   %eq_1 : Tensor "b8[8, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Scalar](args = (%primals_1, -1), kwargs = {})
#   %unsqueeze_10 : Tensor "b8[8, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%eq_1, -1), kwargs = {})
#   %full_default_11 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_7 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%unsqueeze_10, %full_default_11, %add_29), kwargs = {})
#   %full_default_12 : Tensor "f32[512, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([512, 64], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %index_put_1 : Tensor "f32[512, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index_put_.default](args = (%full_default_12, [%primals_1], %where_7, True), kwargs = {})
#   return %mul_66,%sum_29,%sum_30,%add_29,%buf96
triton_per_fused_add_embedding_embedding_dense_backward_native_layer_norm_native_layer_norm_backward_unsqueeze_view_19 = async_compile.triton('triton_per_fused_add_embedding_embedding_dense_backward_native_layer_norm_native_layer_norm_backward_unsqueeze_view_19', '''
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
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*i64', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'out_ptr0': '*fp32', 'out_ptr3': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_embedding_embedding_dense_backward_native_layer_norm_native_layer_norm_backward_unsqueeze_view_19', 'mutated_arg_names': ['in_out_ptr0', 'out_ptr3'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': True, 'num_load': 7, 'num_store': 3, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 34816, 'r0_': 3145984}}
)
@triton.jit
def triton_per_fused_add_embedding_embedding_dense_backward_native_layer_norm_native_layer_norm_backward_unsqueeze_view_19(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, out_ptr0, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
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
    x3 = xindex
    r0_2 = r0_index
    x0 = (xindex % 256)
    tmp0 = tl.load(in_ptr0 + (x3), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr2 + (x0), xmask, eviction_policy='evict_last')
    tmp15 = tl.load(in_ptr4 + (x3), xmask, eviction_policy='evict_last')
    tmp17 = tl.load(in_ptr5 + (x3), xmask, eviction_policy='evict_last')
    tmp22 = tl.load(in_ptr6 + (r0_2 + 64*x3), xmask, other=0.0)
    tmp23 = tl.load(in_ptr7 + (r0_2), None, eviction_policy='evict_last')
    tmp34 = tl.load(in_out_ptr0 + (r0_2 + 64*x3), xmask, other=0.0)
    tmp1 = tl.full([1, 1], 512, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 512)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 512")
    tmp6 = tl.load(in_ptr1 + (r0_2 + 64*tmp4), xmask, other=0.0)
    tmp8 = tl.full([1, 1], 256, tl.int32)
    tmp9 = tmp7 + tmp8
    tmp10 = tmp7 < 0
    tmp11 = tl.where(tmp10, tmp9, tmp7)
    tl.device_assert(((0 <= tmp11) & (tmp11 < 256)) | ~(xmask), "index out of bounds: 0 <= tmp11 < 256")
    tmp13 = tl.load(in_ptr3 + (r0_2 + 64*tmp11), xmask, other=0.0)
    tmp14 = tmp6 + tmp13
    tmp16 = tmp14 - tmp15
    tmp18 = tl.full([1, 1], 1e-05, tl.float32)
    tmp19 = tmp17 + tmp18
    tmp20 = libdevice.rsqrt(tmp19)
    tmp21 = tmp16 * tmp20
    tmp24 = tmp22 * tmp23
    tmp25 = tl.broadcast_to(tmp24, [XBLOCK, R0_BLOCK])
    tmp27 = tl.where(xmask, tmp25, 0)
    tmp28 = tl.sum(tmp27, 1)[:, None].to(tl.float32)
    tmp29 = tmp24 * tmp21
    tmp30 = tl.broadcast_to(tmp29, [XBLOCK, R0_BLOCK])
    tmp32 = tl.where(xmask, tmp30, 0)
    tmp33 = tl.sum(tmp32, 1)[:, None].to(tl.float32)
    tmp35 = tl.full([1, 1], 0.015625, tl.float32)
    tmp36 = tmp20 * tmp35
    tmp37 = tl.full([1, 1], 64.0, tl.float32)
    tmp38 = tmp24 * tmp37
    tmp39 = tmp38 - tmp28
    tmp40 = tmp21 * tmp33
    tmp41 = tmp39 - tmp40
    tmp42 = tmp36 * tmp41
    tmp43 = tmp34 + tmp42
    tmp44 = tl.full([1, 1], -1, tl.int64)
    tmp45 = tmp0 == tmp44
    tmp46 = tl.full([1, 1], 0.0, tl.float32)
    tmp47 = tl.where(tmp45, tmp46, tmp43)
    tl.store(out_ptr0 + (r0_2 + 64*x3), tmp21, xmask)
    tl.store(in_out_ptr0 + (r0_2 + 64*x3), tmp43, xmask)
    tl.atomic_add(out_ptr3 + (tl.broadcast_to(r0_2 + 64*tmp4, [XBLOCK, R0_BLOCK])), tmp47, xmask, sem='relaxed')
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/n5/cn5eg3pzovahq2lqvx2ncjbdhw4v4bhvklkfadecemyrzsp6paiq.py
# Topologically Sorted Source Nodes: [full_default_10], Original ATen: [aten.embedding_dense_backward]
# Source node to ATen node mapping:
#   full_default_10 => full_default_10
# Graph fragment:
#   %full_default_10 : Tensor "f32[256, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([256, 64], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   return %index_put
triton_poi_fused_embedding_dense_backward_20 = async_compile.triton('triton_poi_fused_embedding_dense_backward_20', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16384}, 
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_embedding_dense_backward_20', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 131072}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_embedding_dense_backward_20(out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 16384
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.full([1], 0.0, tl.float32)
    tl.store(out_ptr0 + (x0), tmp0, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/z2/cz2xknov7xysl6zc4vedqf6cqbjbe2ctcwhdy45mtk4xyou6lwzg.py
# Topologically Sorted Source Nodes: [position_ids_1, sum_33, eq, unsqueeze_9, full_default_9, where_6, full_default_10, index_put], Original ATen: [aten.unsqueeze, aten.sum, aten.embedding_dense_backward]
# Source node to ATen node mapping:
#   eq => eq
#   full_default_10 => full_default_10
#   full_default_9 => full_default_9
#   index_put => index_put
#   position_ids_1 => unsqueeze
#   sum_33 => sum_33
#   unsqueeze_9 => unsqueeze_9
#   where_6 => where_6
# Graph fragment:
#   %add_29 : Tensor "f32[8, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=add_29]
#   %add : Tensor "i64[256][1]cuda:0" = PlaceHolder[target=add]
#   %sum_33 : Tensor "f32[1, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=sum_33]
#   %index_put : Tensor "f32[256, 64][64, 1]cuda:0" = PlaceHolder[target=index_put]
#   %unsqueeze : Tensor "i64[1, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %sum_33 : Tensor "f32[1, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%add_29, [0], True), kwargs = {})
#   %eq : Tensor "b8[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Scalar](args = (%unsqueeze, -1), kwargs = {})
#   %unsqueeze_9 : Tensor "b8[1, 256, 1][256, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%eq, -1), kwargs = {})
#   %full_default_9 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_6 : Tensor "f32[1, 256, 64][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%unsqueeze_9, %full_default_9, %sum_33), kwargs = {})
#   %full_default_10 : Tensor "f32[256, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([256, 64], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %index_put : Tensor "f32[256, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index_put_.default](args = (%full_default_10, [%unsqueeze], %where_6, True), kwargs = {})
#   return %sum_33,%buf94
triton_per_fused_embedding_dense_backward_sum_unsqueeze_21 = async_compile.triton('triton_per_fused_embedding_dense_backward_sum_unsqueeze_21', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 16384, 'r0_': 8},
    reduction_hint=ReductionHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*i64', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_embedding_dense_backward_sum_unsqueeze_21', 'mutated_arg_names': ['out_ptr1'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': True, 'num_load': 2, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 524288, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_embedding_dense_backward_sum_unsqueeze_21(in_ptr0, in_ptr1, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 16384
    r0_numel = 8
    R0_BLOCK: tl.constexpr = 8
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    x3 = xindex // 64
    x2 = (xindex % 64)
    tmp0 = tl.load(in_ptr0 + (x0 + 16384*r0_1), None)
    tmp4 = tl.load(in_ptr1 + (x3), None, eviction_policy='evict_last')
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.sum(tmp1, 1)[:, None].to(tl.float32)
    tmp5 = tl.full([1, 1], 256, tl.int32)
    tmp6 = tmp4 + tmp5
    tmp7 = tmp4 < 0
    tmp8 = tl.where(tmp7, tmp6, tmp4)
    tl.device_assert((0 <= tmp8) & (tmp8 < 256), "index out of bounds: 0 <= tmp8 < 256")
    tmp10 = tl.full([1, 1], -1, tl.int64)
    tmp11 = tmp4 == tmp10
    tmp12 = tl.full([1, 1], 0.0, tl.float32)
    tmp13 = tl.where(tmp11, tmp12, tmp3)
    tl.atomic_add(out_ptr1 + (x2 + 64*tmp8), tmp13, None, sem='relaxed')
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
        primals_1, primals_2, primals_3, primals_4, primals_7, primals_9, primals_10, primals_13, primals_15, primals_16, primals_19, primals_21, primals_22, primals_25, primals_27, primals_28, primals_30, add, getitem, getitem_1, add_5, addmm, getitem_5, getitem_6, getitem_7, getitem_8, addmm_1, getitem_9, getitem_10, add_8, addmm_2, mul_7, addmm_3, getitem_11, getitem_12, add_13, addmm_4, getitem_16, getitem_17, getitem_18, getitem_19, addmm_5, getitem_20, getitem_21, add_16, addmm_6, mul_15, addmm_7, getitem_22, getitem_23, add_21, mm, amax, sum_1, convert_element_type, tangents_1 = args
        args.clear()
        assert_size_stride(primals_1, (8, 256), (256, 1))
        assert_size_stride(primals_2, (512, 64), (64, 1))
        assert_size_stride(primals_3, (256, 64), (64, 1))
        assert_size_stride(primals_4, (64, ), (1, ))
        assert_size_stride(primals_7, (64, 192), (192, 1))
        assert_size_stride(primals_9, (64, 64), (64, 1))
        assert_size_stride(primals_10, (64, ), (1, ))
        assert_size_stride(primals_13, (64, 256), (256, 1))
        assert_size_stride(primals_15, (256, 64), (64, 1))
        assert_size_stride(primals_16, (64, ), (1, ))
        assert_size_stride(primals_19, (64, 192), (192, 1))
        assert_size_stride(primals_21, (64, 64), (64, 1))
        assert_size_stride(primals_22, (64, ), (1, ))
        assert_size_stride(primals_25, (64, 256), (256, 1))
        assert_size_stride(primals_27, (256, 64), (64, 1))
        assert_size_stride(primals_28, (64, ), (1, ))
        assert_size_stride(primals_30, (8, 256), (256, 1))
        assert_size_stride(add, (256, ), (1, ))
        assert_size_stride(getitem, (8, 256, 1), (256, 1, 1))
        assert_size_stride(getitem_1, (8, 256, 1), (256, 1, 1))
        assert_size_stride(add_5, (8, 256, 64), (16384, 64, 1))
        assert_size_stride(addmm, (2048, 192), (192, 1))
        assert_size_stride(getitem_5, (8, 4, 256, 16), (16384, 16, 64, 1))
        assert_size_stride(getitem_6, (8, 4, 256), (1024, 256, 1))
        assert_size_stride(getitem_7, (), ())
        assert_size_stride(getitem_8, (), ())
        assert_size_stride(addmm_1, (2048, 64), (64, 1))
        assert_size_stride(getitem_9, (8, 256, 1), (256, 1, 1))
        assert_size_stride(getitem_10, (8, 256, 1), (256, 1, 1))
        assert_size_stride(add_8, (8, 256, 64), (16384, 64, 1))
        assert_size_stride(addmm_2, (2048, 256), (256, 1))
        assert_size_stride(mul_7, (8, 256, 256), (65536, 256, 1))
        assert_size_stride(addmm_3, (2048, 64), (64, 1))
        assert_size_stride(getitem_11, (8, 256, 1), (256, 1, 1))
        assert_size_stride(getitem_12, (8, 256, 1), (256, 1, 1))
        assert_size_stride(add_13, (8, 256, 64), (16384, 64, 1))
        assert_size_stride(addmm_4, (2048, 192), (192, 1))
        assert_size_stride(getitem_16, (8, 4, 256, 16), (16384, 16, 64, 1))
        assert_size_stride(getitem_17, (8, 4, 256), (1024, 256, 1))
        assert_size_stride(getitem_18, (), ())
        assert_size_stride(getitem_19, (), ())
        assert_size_stride(addmm_5, (2048, 64), (64, 1))
        assert_size_stride(getitem_20, (8, 256, 1), (256, 1, 1))
        assert_size_stride(getitem_21, (8, 256, 1), (256, 1, 1))
        assert_size_stride(add_16, (8, 256, 64), (16384, 64, 1))
        assert_size_stride(addmm_6, (2048, 256), (256, 1))
        assert_size_stride(mul_15, (8, 256, 256), (65536, 256, 1))
        assert_size_stride(addmm_7, (2048, 64), (64, 1))
        assert_size_stride(getitem_22, (8, 256, 1), (256, 1, 1))
        assert_size_stride(getitem_23, (8, 256, 1), (256, 1, 1))
        assert_size_stride(add_21, (8, 256, 64), (16384, 64, 1))
        assert_size_stride(mm, (2048, 512), (512, 1))
        assert_size_stride(amax, (2048, 1), (1, 1))
        assert_size_stride(sum_1, (2048, 1), (1, 1))
        assert_size_stride(convert_element_type, (), ())
        assert_size_stride(tangents_1, (), ())
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf1 = mm; del mm  # reuse
            # Topologically Sorted Source Nodes: [div_1, flatten_1, unsqueeze_8, ne_3, full_default_6, where_4, ne_4, full_default_8, where_5, mul_18, cross_entropy, exp_1, sum_4, mul_19, sub_7], Original ATen: [aten.nll_loss_backward, aten.view, aten.arange, aten.expand, aten.eq, aten.scalar_tensor, aten.where, aten._log_softmax, aten._log_softmax_backward_data]
            stream0 = get_raw_stream(0)
            triton_per_fused__log_softmax__log_softmax_backward_data_arange_eq_expand_nll_loss_backward_scalar_tensor_view_where_0.run(buf1, primals_30, tangents_1, convert_element_type, amax, sum_1, 2048, 512, stream=stream0)
            del amax
            del convert_element_type
            del primals_30
            del sum_1
            del tangents_1
            buf2 = empty_strided_cuda((2048, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [logits, permute_11, mm_2], Original ATen: [aten.t, aten.mm]
            extern_kernels.mm(buf1, primals_2, out=buf2)
            buf3 = reinterpret_tensor(addmm_1, (8, 256, 64), (16384, 64, 1), 0); del addmm_1  # reuse
            buf4 = reinterpret_tensor(addmm_7, (8, 256, 64), (16384, 64, 1), 0); del addmm_7  # reuse
            buf21 = empty_strided_cuda((8, 256, 64), (16384, 64, 1), torch.float32)
            buf7 = empty_strided_cuda((8, 256, 64), (16384, 64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_32, inputs_embeds, position_ids_1, position_embeds, hidden_states, x_3, hidden_states_3, x_7, hidden_states_7, x_11, hidden_states_9, x_15, hidden_states_13, sub_8, hidden_states_14, mul_20, mul_21, mul_22, sum_5, mul_23, sum_6, mul_24, sub_9, sub_10, div_2, mul_25, sub_12, hidden_states_10, mul_36], Original ATen: [aten.view, aten.embedding, aten.unsqueeze, aten.add, aten.native_layer_norm_backward, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_embedding_native_layer_norm_native_layer_norm_backward_unsqueeze_view_1.run(buf3, buf4, primals_1, primals_2, add, primals_3, addmm_5, addmm_3, getitem_23, getitem_22, getitem_21, getitem_20, buf2, primals_28, buf21, buf7, 2048, 64, stream=stream0)
            del addmm_5
            del getitem_21
            del getitem_22
            del getitem_23
            del primals_28
            buf8 = empty_strided_cuda((64, 16), (1, 64), torch.float32)
            buf10 = empty_strided_cuda((64, 16), (1, 64), torch.float32)
            # Topologically Sorted Source Nodes: [view_32, mul_26, sum_7, sum_8], Original ATen: [aten.view, aten.native_layer_norm_backward]
            stream0 = get_raw_stream(0)
            triton_red_fused_native_layer_norm_backward_view_2.run(buf2, buf4, buf8, buf10, 1024, 128, stream=stream0)
            buf9 = empty_strided_cuda((64, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [view_32, mul_26, sum_7], Original ATen: [aten.view, aten.native_layer_norm_backward]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf8, buf9, 64, 16, stream=stream0)
            buf11 = empty_strided_cuda((64, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [view_32, sum_8], Original ATen: [aten.view, aten.native_layer_norm_backward]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf10, buf11, 64, 16, stream=stream0)
            buf12 = empty_strided_cuda((2048, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_34, permute_13, mm_3], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf7, (2048, 64), (64, 1), 0), reinterpret_tensor(primals_27, (64, 256), (1, 64), 0), out=buf12)
            del primals_27
            buf13 = empty_strided_cuda((256, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_34, view_21, permute_14, mm_4], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(mul_15, (256, 2048), (1, 256), 0), reinterpret_tensor(buf7, (2048, 64), (64, 1), 0), out=buf13)
            del mul_15
            buf14 = reinterpret_tensor(buf10, (1, 64, 16), (1024, 1, 64), 0); del buf10  # reuse
            # Topologically Sorted Source Nodes: [view_34, sum_9], Original ATen: [aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_red_fused_sum_view_4.run(buf7, buf14, 1024, 128, stream=stream0)
            buf15 = empty_strided_cuda((1, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_34, sum_9], Original ATen: [aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf14, buf15, 64, 16, stream=stream0)
            buf16 = reinterpret_tensor(buf12, (8, 256, 256), (65536, 256, 1), 0); del buf12  # reuse
            # Topologically Sorted Source Nodes: [view_36, x_13, mul_4, mul_27, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, mul_28, mul_29, sub_11, mul_30, mul_31, mul_32, pow_3, mul_33, mul_34, add_22, mul_35, add_23], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.tanh_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_mul_pow_tanh_tanh_backward_view_5.run(buf16, addmm_6, 524288, stream=stream0)
            del addmm_6
            buf17 = reinterpret_tensor(buf4, (2048, 64), (64, 1), 0); del buf4  # reuse
            # Topologically Sorted Source Nodes: [view_36, x_13, mul_4, mul_27, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, mul_28, mul_29, sub_11, mul_30, mul_31, mul_32, pow_3, mul_33, mul_34, add_22, mul_35, add_23, view_37, permute_15, mm_5], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.tanh_backward, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf16, (2048, 256), (256, 1), 0), reinterpret_tensor(primals_25, (256, 64), (1, 256), 0), out=buf17)
            del primals_25
            buf18 = empty_strided_cuda((64, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_36, x_13, mul_4, mul_27, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, mul_28, mul_29, sub_11, mul_30, mul_31, mul_32, pow_3, mul_33, mul_34, add_22, mul_35, add_23, view_37, view_19, permute_16, mm_6], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.tanh_backward, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(add_16, (64, 2048), (1, 64), 0), reinterpret_tensor(buf16, (2048, 256), (256, 1), 0), out=buf18)
            del add_16
            buf19 = empty_strided_cuda((1, 256, 16), (4096, 1, 256), torch.float32)
            # Topologically Sorted Source Nodes: [view_36, x_13, mul_4, mul_27, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, mul_28, mul_29, sub_11, mul_30, mul_31, mul_32, pow_3, mul_33, mul_34, add_22, mul_35, add_23, view_37, sum_10], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.tanh_backward, aten.sum]
            stream0 = get_raw_stream(0)
            triton_red_fused_add_mul_pow_sum_tanh_tanh_backward_view_6.run(buf16, buf19, 4096, 128, stream=stream0)
            del buf16
            buf20 = empty_strided_cuda((1, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_36, x_13, mul_4, mul_27, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, mul_28, mul_29, sub_11, mul_30, mul_31, mul_32, pow_3, mul_33, mul_34, add_22, mul_35, add_23, view_37, sum_10], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.tanh_backward, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_mul_pow_sum_tanh_tanh_backward_view_7.run(buf19, buf20, 256, 16, stream=stream0)
            buf28 = buf7; del buf7  # reuse
            # Topologically Sorted Source Nodes: [view_39, hidden_states_10, mul_37, mul_38, sum_11, mul_39, sum_12, mul_40, sub_13, sub_14, div_3, mul_41, add_24], Original ATen: [aten.view, aten.native_layer_norm, aten.native_layer_norm_backward, aten.add]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_8.run(buf28, buf17, primals_22, buf21, getitem_20, 2048, 64, stream=stream0)
            del getitem_20
            del primals_22
            buf24 = reinterpret_tensor(buf14, (64, 16), (1, 64), 0); del buf14  # reuse
            buf26 = buf8; del buf8  # reuse
            # Topologically Sorted Source Nodes: [view_39, mul_42, sum_13, sum_14], Original ATen: [aten.view, aten.native_layer_norm_backward]
            stream0 = get_raw_stream(0)
            triton_red_fused_native_layer_norm_backward_view_2.run(buf17, buf21, buf24, buf26, 1024, 128, stream=stream0)
            buf25 = empty_strided_cuda((64, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [view_39, mul_42, sum_13], Original ATen: [aten.view, aten.native_layer_norm_backward]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf24, buf25, 64, 16, stream=stream0)
            del buf24
            buf27 = empty_strided_cuda((64, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [view_39, sum_14], Original ATen: [aten.view, aten.native_layer_norm_backward]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf26, buf27, 64, 16, stream=stream0)
            buf29 = reinterpret_tensor(buf21, (2048, 64), (64, 1), 0); del buf21  # reuse
            # Topologically Sorted Source Nodes: [view_40, permute_17, mm_7], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf28, (2048, 64), (64, 1), 0), reinterpret_tensor(primals_21, (64, 64), (1, 64), 0), out=buf29)
            del primals_21
            buf30 = reinterpret_tensor(buf19, (64, 64), (64, 1), 0); del buf19  # reuse
            # Topologically Sorted Source Nodes: [view_40, transpose_7, reshape_1, view_17, permute_18, mm_8], Original ATen: [aten.view, aten.transpose, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(getitem_16, (64, 2048), (1, 64), 0), reinterpret_tensor(buf28, (2048, 64), (64, 1), 0), out=buf30)
            buf31 = reinterpret_tensor(buf26, (1, 64, 16), (1024, 1, 64), 0); del buf26  # reuse
            # Topologically Sorted Source Nodes: [view_40, sum_15], Original ATen: [aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_red_fused_sum_view_4.run(buf28, buf31, 1024, 128, stream=stream0)
            buf32 = empty_strided_cuda((1, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_40, sum_15], Original ATen: [aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf31, buf32, 64, 16, stream=stream0)
            del buf31
            buf33 = reinterpret_tensor(buf17, (8, 4, 256, 16), (16384, 16, 64, 1), 0); del buf17  # reuse
            # Topologically Sorted Source Nodes: [view_42, view_43, permute_19, arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, x_9, split_1, view_14, key_states_3, view_15, value_states_3, view_16, query_states_3, keys_1, values_1, attn_output_4, _scaled_dot_product_efficient_attention_backward], Original ATen: [aten.view, aten.transpose, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.split, aten.cat, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_9.run(addmm_4, buf33, 131072, stream=stream0)
            buf34 = reinterpret_tensor(buf2, (8, 4, 256, 16), (16384, 16, 64, 1), 0); del buf2  # reuse
            # Topologically Sorted Source Nodes: [view_42, view_43, permute_19, arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, x_9, split_1, view_14, key_states_3, view_15, value_states_3, view_16, query_states_3, keys_1, values_1, attn_output_4, _scaled_dot_product_efficient_attention_backward], Original ATen: [aten.view, aten.transpose, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.split, aten.cat, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_10.run(addmm_4, buf34, 131072, stream=stream0)
            buf35 = empty_strided_cuda((8, 4, 256, 256), (262144, 65536, 256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_42, view_43, permute_19, arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, x_9, split_1, view_14, key_states_3, view_15, value_states_3, view_16, query_states_3, keys_1, values_1, attn_output_4, _scaled_dot_product_efficient_attention_backward], Original ATen: [aten.view, aten.transpose, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.split, aten.cat, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_11.run(buf35, 2097152, stream=stream0)
            # Topologically Sorted Source Nodes: [view_42, view_43, permute_19, arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, x_9, split_1, view_14, key_states_3, view_15, value_states_3, view_16, query_states_3, keys_1, values_1, attn_output_4, _scaled_dot_product_efficient_attention_backward], Original ATen: [aten.view, aten.transpose, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.split, aten.cat, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            buf36 = torch.ops.aten._scaled_dot_product_efficient_attention_backward.default(reinterpret_tensor(buf29, (8, 4, 256, 16), (16384, 16, 64, 1), 0), reinterpret_tensor(addmm_4, (8, 4, 256, 16), (49152, 16, 192, 1), 0), buf33, buf34, buf35, getitem_16, getitem_17, getitem_18, getitem_19, 0.0, [True, True, True, False], scale=0.25)
            del addmm_4
            del buf29
            del buf33
            del buf34
            del getitem_16
            del getitem_17
            del getitem_18
            del getitem_19
            buf37 = buf36[0]
            assert_size_stride(buf37, (8, 4, 256, 16), (16384, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            assert_alignment(buf37, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            buf38 = buf36[1]
            assert_size_stride(buf38, (8, 4, 256, 16), (16384, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            assert_alignment(buf38, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            buf39 = buf36[2]
            assert_size_stride(buf39, (8, 4, 256, 16), (16384, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            assert_alignment(buf39, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            del buf36
            buf40 = empty_strided_cuda((8, 256, 192), (49152, 192, 1), torch.float32)
            # Topologically Sorted Source Nodes: [permute_20, view_44, permute_21, view_45, permute_22, view_46, cat], Original ATen: [aten.transpose, aten.view, aten.cat]
            stream0 = get_raw_stream(0)
            triton_poi_fused_cat_transpose_view_12.run(buf37, buf38, buf39, buf40, 393216, stream=stream0)
            del buf37
            buf41 = reinterpret_tensor(buf39, (2048, 64), (64, 1), 0); del buf39  # reuse
            # Topologically Sorted Source Nodes: [permute_20, view_44, permute_21, view_45, permute_22, view_46, cat, view_47, permute_23, mm_9], Original ATen: [aten.transpose, aten.view, aten.cat, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf40, (2048, 192), (192, 1), 0), reinterpret_tensor(primals_19, (192, 64), (1, 192), 0), out=buf41)
            del primals_19
            buf42 = empty_strided_cuda((64, 192), (192, 1), torch.float32)
            # Topologically Sorted Source Nodes: [permute_20, view_44, permute_21, view_45, permute_22, view_46, cat, view_47, view_12, permute_24, mm_10], Original ATen: [aten.transpose, aten.view, aten.cat, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(add_13, (64, 2048), (1, 64), 0), reinterpret_tensor(buf40, (2048, 192), (192, 1), 0), out=buf42)
            del add_13
            buf43 = empty_strided_cuda((1, 192, 16), (3072, 1, 192), torch.float32)
            # Topologically Sorted Source Nodes: [permute_20, view_44, permute_21, view_45, permute_22, view_46, cat, view_47, sum_16], Original ATen: [aten.transpose, aten.view, aten.cat, aten.sum]
            stream0 = get_raw_stream(0)
            triton_red_fused_cat_sum_transpose_view_13.run(buf40, buf43, 3072, 128, stream=stream0)
            del buf40
            buf44 = empty_strided_cuda((1, 192), (192, 1), torch.float32)
            # Topologically Sorted Source Nodes: [permute_20, view_44, permute_21, view_45, permute_22, view_46, cat, view_47, sum_16], Original ATen: [aten.transpose, aten.view, aten.cat, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_cat_sum_transpose_view_14.run(buf43, buf44, 192, 16, stream=stream0)
            buf51 = buf28; del buf28  # reuse
            # Topologically Sorted Source Nodes: [x_7, hidden_states_7, view_49, sub_15, hidden_states_8, mul_43, mul_44, mul_45, sum_17, mul_46, sum_18, mul_47, sub_16, sub_17, div_4, mul_48, add_25], Original ATen: [aten.view, aten.add, aten.native_layer_norm_backward, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_15.run(buf51, buf41, primals_16, buf3, addmm_3, getitem_12, getitem_11, 2048, 64, stream=stream0)
            del primals_16
            buf52 = empty_strided_cuda((2048, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_50, permute_25, mm_11], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf51, (2048, 64), (64, 1), 0), reinterpret_tensor(primals_15, (64, 256), (1, 64), 0), out=buf52)
            del primals_15
            buf56 = reinterpret_tensor(buf52, (8, 256, 256), (65536, 256, 1), 0); del buf52  # reuse
            # Topologically Sorted Source Nodes: [view_52, x_5, mul, mul_50, pow_1, mul_1, add_5, mul_2, tanh, add_6, mul_51, mul_52, sub_18, mul_53, mul_54, mul_55, pow_4, mul_56, mul_57, add_26, mul_58, add_27], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.tanh_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_mul_pow_tanh_tanh_backward_view_5.run(buf56, addmm_2, 524288, stream=stream0)
            del addmm_2
            buf57 = reinterpret_tensor(buf38, (2048, 64), (64, 1), 0); del buf38  # reuse
            # Topologically Sorted Source Nodes: [view_52, x_5, mul, mul_50, pow_1, mul_1, add_5, mul_2, tanh, add_6, mul_51, mul_52, sub_18, mul_53, mul_54, mul_55, pow_4, mul_56, mul_57, add_26, mul_58, add_27, view_53, permute_27, mm_13], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.tanh_backward, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf56, (2048, 256), (256, 1), 0), reinterpret_tensor(primals_13, (256, 64), (1, 256), 0), out=buf57)
            del primals_13
            buf47 = empty_strided_cuda((64, 16), (1, 64), torch.float32)
            buf49 = empty_strided_cuda((64, 16), (1, 64), torch.float32)
            buf63 = empty_strided_cuda((64, 16), (1, 64), torch.float32)
            buf65 = empty_strided_cuda((64, 16), (1, 64), torch.float32)
            # Topologically Sorted Source Nodes: [x_7, hidden_states_7, view_49, sub_15, hidden_states_8, mul_43, mul_49, sum_19, sum_20, view_55, sub_19, hidden_states_4, mul_59, mul_65, sum_25, sum_26], Original ATen: [aten.view, aten.add, aten.native_layer_norm_backward, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused_add_native_layer_norm_native_layer_norm_backward_view_16.run(buf41, buf3, addmm_3, getitem_12, getitem_11, buf57, getitem_10, getitem_9, buf47, buf49, buf63, buf65, 1024, 128, stream=stream0)
            del addmm_3
            del getitem_11
            del getitem_12
            buf48 = empty_strided_cuda((64, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [x_7, hidden_states_7, view_49, sub_15, hidden_states_8, mul_43, mul_49, sum_19], Original ATen: [aten.view, aten.add, aten.native_layer_norm_backward, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf47, buf48, 64, 16, stream=stream0)
            del buf47
            buf50 = empty_strided_cuda((64, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [view_49, sum_20], Original ATen: [aten.view, aten.native_layer_norm_backward]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf49, buf50, 64, 16, stream=stream0)
            buf53 = empty_strided_cuda((256, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_50, view_10, permute_26, mm_12], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(mul_7, (256, 2048), (1, 256), 0), reinterpret_tensor(buf51, (2048, 64), (64, 1), 0), out=buf53)
            del mul_7
            buf54 = reinterpret_tensor(buf49, (1, 64, 16), (1024, 1, 64), 0); del buf49  # reuse
            # Topologically Sorted Source Nodes: [view_50, sum_21], Original ATen: [aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_red_fused_sum_view_4.run(buf51, buf54, 1024, 128, stream=stream0)
            buf55 = empty_strided_cuda((1, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_50, sum_21], Original ATen: [aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf54, buf55, 64, 16, stream=stream0)
            del buf54
            buf58 = empty_strided_cuda((64, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_52, x_5, mul, mul_50, pow_1, mul_1, add_5, mul_2, tanh, add_6, mul_51, mul_52, sub_18, mul_53, mul_54, mul_55, pow_4, mul_56, mul_57, add_26, mul_58, add_27, view_53, view_8, permute_28, mm_14], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.tanh_backward, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(add_8, (64, 2048), (1, 64), 0), reinterpret_tensor(buf56, (2048, 256), (256, 1), 0), out=buf58)
            del add_8
            buf59 = empty_strided_cuda((1, 256, 16), (4096, 1, 256), torch.float32)
            # Topologically Sorted Source Nodes: [view_52, x_5, mul, mul_50, pow_1, mul_1, add_5, mul_2, tanh, add_6, mul_51, mul_52, sub_18, mul_53, mul_54, mul_55, pow_4, mul_56, mul_57, add_26, mul_58, add_27, view_53, sum_22], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.tanh_backward, aten.sum]
            stream0 = get_raw_stream(0)
            triton_red_fused_add_mul_pow_sum_tanh_tanh_backward_view_6.run(buf56, buf59, 4096, 128, stream=stream0)
            del buf56
            buf60 = empty_strided_cuda((1, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_52, x_5, mul, mul_50, pow_1, mul_1, add_5, mul_2, tanh, add_6, mul_51, mul_52, sub_18, mul_53, mul_54, mul_55, pow_4, mul_56, mul_57, add_26, mul_58, add_27, view_53, sum_22], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.tanh_backward, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_mul_pow_sum_tanh_tanh_backward_view_7.run(buf59, buf60, 256, 16, stream=stream0)
            buf67 = buf51; del buf51  # reuse
            # Topologically Sorted Source Nodes: [view_55, sub_19, hidden_states_4, mul_59, mul_60, mul_61, sum_23, mul_62, sum_24, mul_63, sub_20, sub_21, div_5, mul_64, add_28], Original ATen: [aten.view, aten.native_layer_norm_backward, aten.native_layer_norm, aten.add]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_17.run(buf67, buf57, primals_10, buf3, getitem_10, getitem_9, 2048, 64, stream=stream0)
            del getitem_10
            del getitem_9
            del primals_10
            buf64 = empty_strided_cuda((64, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [view_55, sub_19, hidden_states_4, mul_59, mul_65, sum_25], Original ATen: [aten.view, aten.native_layer_norm_backward, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf63, buf64, 64, 16, stream=stream0)
            buf66 = empty_strided_cuda((64, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [view_55, sum_26], Original ATen: [aten.view, aten.native_layer_norm_backward]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf65, buf66, 64, 16, stream=stream0)
            buf68 = buf57; del buf57  # reuse
            # Topologically Sorted Source Nodes: [view_56, permute_29, mm_15], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf67, (2048, 64), (64, 1), 0), reinterpret_tensor(primals_9, (64, 64), (1, 64), 0), out=buf68)
            del primals_9
            buf69 = reinterpret_tensor(buf59, (64, 64), (64, 1), 0); del buf59  # reuse
            # Topologically Sorted Source Nodes: [view_56, transpose_3, reshape, view_6, permute_30, mm_16], Original ATen: [aten.view, aten.transpose, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(getitem_5, (64, 2048), (1, 64), 0), reinterpret_tensor(buf67, (2048, 64), (64, 1), 0), out=buf69)
            buf70 = reinterpret_tensor(buf65, (1, 64, 16), (1024, 1, 64), 0); del buf65  # reuse
            # Topologically Sorted Source Nodes: [view_56, sum_27], Original ATen: [aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_red_fused_sum_view_4.run(buf67, buf70, 1024, 128, stream=stream0)
            buf71 = empty_strided_cuda((1, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_56, sum_27], Original ATen: [aten.view, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf70, buf71, 64, 16, stream=stream0)
            buf72 = reinterpret_tensor(buf3, (8, 4, 256, 16), (16384, 16, 64, 1), 0); del buf3  # reuse
            # Topologically Sorted Source Nodes: [arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, view_58, view_59, permute_31, x_1, split, view_3, key_states_1, view_4, value_states_1, view_5, query_states_1, keys, values, attn_output, _scaled_dot_product_efficient_attention_backward_1], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.view, aten.transpose, aten.split, aten.cat, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_9.run(addmm, buf72, 131072, stream=stream0)
            buf73 = reinterpret_tensor(buf41, (8, 4, 256, 16), (16384, 16, 64, 1), 0); del buf41  # reuse
            # Topologically Sorted Source Nodes: [arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, view_58, view_59, permute_31, x_1, split, view_3, key_states_1, view_4, value_states_1, view_5, query_states_1, keys, values, attn_output, _scaled_dot_product_efficient_attention_backward_1], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.view, aten.transpose, aten.split, aten.cat, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_10.run(addmm, buf73, 131072, stream=stream0)
            buf74 = buf35; del buf35  # reuse
            # Topologically Sorted Source Nodes: [arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, view_58, view_59, permute_31, x_1, split, view_3, key_states_1, view_4, value_states_1, view_5, query_states_1, keys, values, attn_output, _scaled_dot_product_efficient_attention_backward_1], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.view, aten.transpose, aten.split, aten.cat, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_efficient_attention_backward_add_arange_cat_expand_le_scalar_tensor_split_transpose_unsqueeze_view_where_11.run(buf74, 2097152, stream=stream0)
            # Topologically Sorted Source Nodes: [arange_3, q_arange, arange_4, kv_arange, q_indices, kv_indices, attention_mask, attention_mask_1, view_58, view_59, permute_31, x_1, split, view_3, key_states_1, view_4, value_states_1, view_5, query_states_1, keys, values, attn_output, _scaled_dot_product_efficient_attention_backward_1], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.view, aten.transpose, aten.split, aten.cat, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention_backward]
            buf75 = torch.ops.aten._scaled_dot_product_efficient_attention_backward.default(reinterpret_tensor(buf68, (8, 4, 256, 16), (16384, 16, 64, 1), 0), reinterpret_tensor(addmm, (8, 4, 256, 16), (49152, 16, 192, 1), 0), buf72, buf73, buf74, getitem_5, getitem_6, getitem_7, getitem_8, 0.0, [True, True, True, False], scale=0.25)
            del addmm
            del buf68
            del buf72
            del buf73
            del buf74
            del getitem_5
            del getitem_6
            del getitem_7
            del getitem_8
            buf76 = buf75[0]
            assert_size_stride(buf76, (8, 4, 256, 16), (16384, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            assert_alignment(buf76, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            buf77 = buf75[1]
            assert_size_stride(buf77, (8, 4, 256, 16), (16384, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            assert_alignment(buf77, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            buf78 = buf75[2]
            assert_size_stride(buf78, (8, 4, 256, 16), (16384, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            assert_alignment(buf78, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention_backward.default')
            del buf75
            buf79 = empty_strided_cuda((8, 256, 192), (49152, 192, 1), torch.float32)
            # Topologically Sorted Source Nodes: [permute_32, view_60, permute_33, view_61, permute_34, view_62, cat_1], Original ATen: [aten.transpose, aten.view, aten.cat]
            stream0 = get_raw_stream(0)
            triton_poi_fused_cat_transpose_view_12.run(buf76, buf77, buf78, buf79, 393216, stream=stream0)
            del buf76
            buf80 = reinterpret_tensor(buf78, (2048, 64), (64, 1), 0); del buf78  # reuse
            # Topologically Sorted Source Nodes: [permute_32, view_60, permute_33, view_61, permute_34, view_62, cat_1, view_63, permute_35, mm_17], Original ATen: [aten.transpose, aten.view, aten.cat, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf79, (2048, 192), (192, 1), 0), reinterpret_tensor(primals_7, (192, 64), (1, 192), 0), out=buf80)
            del primals_7
            buf81 = empty_strided_cuda((64, 192), (192, 1), torch.float32)
            # Topologically Sorted Source Nodes: [permute_32, view_60, permute_33, view_61, permute_34, view_62, cat_1, view_63, view_1, permute_36, mm_18], Original ATen: [aten.transpose, aten.view, aten.cat, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(add_5, (64, 2048), (1, 64), 0), reinterpret_tensor(buf79, (2048, 192), (192, 1), 0), out=buf81)
            del add_5
            buf82 = buf43; del buf43  # reuse
            # Topologically Sorted Source Nodes: [permute_32, view_60, permute_33, view_61, permute_34, view_62, cat_1, view_63, sum_28], Original ATen: [aten.transpose, aten.view, aten.cat, aten.sum]
            stream0 = get_raw_stream(0)
            triton_red_fused_cat_sum_transpose_view_13.run(buf79, buf82, 3072, 128, stream=stream0)
            del buf79
            buf83 = empty_strided_cuda((1, 192), (192, 1), torch.float32)
            # Topologically Sorted Source Nodes: [permute_32, view_60, permute_33, view_61, permute_34, view_62, cat_1, view_63, sum_28], Original ATen: [aten.transpose, aten.view, aten.cat, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_cat_sum_transpose_view_14.run(buf82, buf83, 192, 16, stream=stream0)
            del buf82
            buf95 = empty_strided_cuda((512, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [full_default_12], Original ATen: [aten.embedding_dense_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused_embedding_dense_backward_18.run(buf95, 32768, stream=stream0)
            buf84 = reinterpret_tensor(buf77, (8, 256, 64), (16384, 64, 1), 0); del buf77  # reuse
            buf91 = buf67; del buf67  # reuse
            # Topologically Sorted Source Nodes: [inputs_embeds, position_ids_1, position_embeds, hidden_states, view_65, sub_22, hidden_states_2, mul_66, mul_67, mul_68, sum_29, mul_69, sum_30, mul_70, sub_23, sub_24, div_6, mul_71, add_29, eq_1, unsqueeze_10, full_default_11, where_7, full_default_12, index_put_1], Original ATen: [aten.embedding, aten.unsqueeze, aten.add, aten.view, aten.native_layer_norm_backward, aten.native_layer_norm, aten.embedding_dense_backward]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_embedding_embedding_dense_backward_native_layer_norm_native_layer_norm_backward_unsqueeze_view_19.run(buf91, primals_1, primals_2, add, primals_3, getitem_1, getitem, buf80, primals_4, buf84, buf95, 2048, 64, stream=stream0)
            del getitem
            del getitem_1
            del primals_1
            del primals_2
            del primals_3
            del primals_4
            buf87 = reinterpret_tensor(buf70, (64, 16), (1, 64), 0); del buf70  # reuse
            buf89 = buf63; del buf63  # reuse
            # Topologically Sorted Source Nodes: [view_65, mul_72, sum_31, sum_32], Original ATen: [aten.view, aten.native_layer_norm_backward]
            stream0 = get_raw_stream(0)
            triton_red_fused_native_layer_norm_backward_view_2.run(buf80, buf84, buf87, buf89, 1024, 128, stream=stream0)
            del buf80
            del buf84
            buf88 = empty_strided_cuda((64, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [view_65, mul_72, sum_31], Original ATen: [aten.view, aten.native_layer_norm_backward]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf87, buf88, 64, 16, stream=stream0)
            del buf87
            buf90 = empty_strided_cuda((64, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [view_65, sum_32], Original ATen: [aten.view, aten.native_layer_norm_backward]
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_backward_view_3.run(buf89, buf90, 64, 16, stream=stream0)
            del buf89
            buf93 = empty_strided_cuda((256, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [full_default_10], Original ATen: [aten.embedding_dense_backward]
            stream0 = get_raw_stream(0)
            triton_poi_fused_embedding_dense_backward_20.run(buf93, 16384, stream=stream0)
            # Topologically Sorted Source Nodes: [position_ids_1, sum_33, eq, unsqueeze_9, full_default_9, where_6, full_default_10, index_put], Original ATen: [aten.unsqueeze, aten.sum, aten.embedding_dense_backward]
            stream0 = get_raw_stream(0)
            triton_per_fused_embedding_dense_backward_sum_unsqueeze_21.run(buf91, add, buf93, 16384, 8, stream=stream0)
            del add
            del buf91
            buf97 = empty_strided_cuda((512, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [permute_9, logits], Original ATen: [aten.t, aten.view, aten.addmm]
            extern_kernels.addmm(buf95, reinterpret_tensor(buf1, (512, 2048), (1, 512), 0), reinterpret_tensor(add_21, (2048, 64), (64, 1), 0), alpha=1, beta=1, out=buf97)
            del add_21
            del buf1
            del buf95
        return (None, buf97, buf93, buf88, buf90, reinterpret_tensor(buf83, (192, ), (1, ), 0), buf81, reinterpret_tensor(buf71, (64, ), (1, ), 0), buf69, buf64, buf66, reinterpret_tensor(buf60, (256, ), (1, ), 0), buf58, reinterpret_tensor(buf55, (64, ), (1, ), 0), buf53, buf48, buf50, reinterpret_tensor(buf44, (192, ), (1, ), 0), buf42, reinterpret_tensor(buf32, (64, ), (1, ), 0), buf30, buf25, buf27, reinterpret_tensor(buf20, (256, ), (1, ), 0), buf18, reinterpret_tensor(buf15, (64, ), (1, ), 0), buf13, buf9, buf11, None, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    primals_1 = rand_strided((8, 256), (256, 1), device='cuda:0', dtype=torch.int64)
    primals_2 = rand_strided((512, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_3 = rand_strided((256, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_4 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_7 = rand_strided((64, 192), (192, 1), device='cuda:0', dtype=torch.float32)
    primals_9 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_10 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_13 = rand_strided((64, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    primals_15 = rand_strided((256, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_16 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_19 = rand_strided((64, 192), (192, 1), device='cuda:0', dtype=torch.float32)
    primals_21 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_22 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_25 = rand_strided((64, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    primals_27 = rand_strided((256, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_28 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_30 = rand_strided((8, 256), (256, 1), device='cuda:0', dtype=torch.int64)
    add = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.int64)
    getitem = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    getitem_1 = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    add_5 = rand_strided((8, 256, 64), (16384, 64, 1), device='cuda:0', dtype=torch.float32)
    addmm = rand_strided((2048, 192), (192, 1), device='cuda:0', dtype=torch.float32)
    getitem_5 = rand_strided((8, 4, 256, 16), (16384, 16, 64, 1), device='cuda:0', dtype=torch.float32)
    getitem_6 = rand_strided((8, 4, 256), (1024, 256, 1), device='cuda:0', dtype=torch.float32)
    getitem_7 = rand_strided((), (), device='cuda:0', dtype=torch.int64)
    getitem_8 = rand_strided((), (), device='cuda:0', dtype=torch.int64)
    addmm_1 = rand_strided((2048, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    getitem_9 = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    getitem_10 = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    add_8 = rand_strided((8, 256, 64), (16384, 64, 1), device='cuda:0', dtype=torch.float32)
    addmm_2 = rand_strided((2048, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    mul_7 = rand_strided((8, 256, 256), (65536, 256, 1), device='cuda:0', dtype=torch.float32)
    addmm_3 = rand_strided((2048, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    getitem_11 = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    getitem_12 = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    add_13 = rand_strided((8, 256, 64), (16384, 64, 1), device='cuda:0', dtype=torch.float32)
    addmm_4 = rand_strided((2048, 192), (192, 1), device='cuda:0', dtype=torch.float32)
    getitem_16 = rand_strided((8, 4, 256, 16), (16384, 16, 64, 1), device='cuda:0', dtype=torch.float32)
    getitem_17 = rand_strided((8, 4, 256), (1024, 256, 1), device='cuda:0', dtype=torch.float32)
    getitem_18 = rand_strided((), (), device='cuda:0', dtype=torch.int64)
    getitem_19 = rand_strided((), (), device='cuda:0', dtype=torch.int64)
    addmm_5 = rand_strided((2048, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    getitem_20 = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    getitem_21 = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    add_16 = rand_strided((8, 256, 64), (16384, 64, 1), device='cuda:0', dtype=torch.float32)
    addmm_6 = rand_strided((2048, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    mul_15 = rand_strided((8, 256, 256), (65536, 256, 1), device='cuda:0', dtype=torch.float32)
    addmm_7 = rand_strided((2048, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    getitem_22 = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    getitem_23 = rand_strided((8, 256, 1), (256, 1, 1), device='cuda:0', dtype=torch.float32)
    add_21 = rand_strided((8, 256, 64), (16384, 64, 1), device='cuda:0', dtype=torch.float32)
    mm = rand_strided((2048, 512), (512, 1), device='cuda:0', dtype=torch.float32)
    amax = rand_strided((2048, 1), (1, 1), device='cuda:0', dtype=torch.float32)
    sum_1 = rand_strided((2048, 1), (1, 1), device='cuda:0', dtype=torch.float32)
    convert_element_type = rand_strided((), (), device='cuda:0', dtype=torch.float32)
    tangents_1 = rand_strided((), (), device='cuda:0', dtype=torch.float32)
    return [primals_1, primals_2, primals_3, primals_4, primals_7, primals_9, primals_10, primals_13, primals_15, primals_16, primals_19, primals_21, primals_22, primals_25, primals_27, primals_28, primals_30, add, getitem, getitem_1, add_5, addmm, getitem_5, getitem_6, getitem_7, getitem_8, addmm_1, getitem_9, getitem_10, add_8, addmm_2, mul_7, addmm_3, getitem_11, getitem_12, add_13, addmm_4, getitem_16, getitem_17, getitem_18, getitem_19, addmm_5, getitem_20, getitem_21, add_16, addmm_6, mul_15, addmm_7, getitem_22, getitem_23, add_21, mm, amax, sum_1, convert_element_type, tangents_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
