"""tessera.runtime.driver.active, Triton's host API that ten of its eleven
tutorials call first: the target, the torch device, the device's properties
(through tessera_device_attribute)."""
import pytest

import tessera
from tessera import _C
from tessera.runtime import driver


def test_the_active_target_and_its_properties_on_this_machine():
    target = driver.active.get_current_target()
    props = driver.active.utils.get_device_properties(driver.active.get_current_device())
    assert props["warpSize"] == target.warp_size >= 1
    assert props["multiprocessor_count"] >= 1
    if target.backend == "cuda":   # a GPU machine: Triton's names, the device's values
        assert target.arch >= 70 and target.warp_size == 32
        for key in ("max_shared_mem", "max_num_regs", "sm_clock_rate", "mem_clock_rate", "mem_bus_width"):
            assert props[key] > 0, key
    else:
        assert target == driver.GPUTarget("cpu", "cpu", 1)  # torch's and Triton's CPU backend's name
        assert set(props) == {"multiprocessor_count", "warpSize", "max_shared_mem", "max_num_regs"}
        assert props["warpSize"] == 1 and props["max_num_regs"] in (64, 128, 512)  # a core's vector register lanes
        # Tiles bound only by memory: a share of it per hardware thread (Triton's tests size dots by it).
        assert props["max_shared_mem"] >= 64 << 20


def test_the_active_torch_device_names_where_tensors_go():
    device = driver.active.get_active_torch_device()
    assert str(device).split(":")[0] in ("cpu", "cuda")


def test_unknown_attributes_are_errors_naming_the_known_ones():
    with pytest.raises(tessera.TesseraError, match="no attribute 'regs'.*multiprocessor_count"):
        _C.device_attribute(_C.get_device("host"), "regs")


def test_compat_exposes_it_as_triton_runtime_driver():
    from tessera import compat
    triton, modules = compat._triton_module()
    assert triton.runtime.driver.active is driver.active
    assert modules["triton.runtime.driver"] is driver
