# Issue 8: the firmware's receive path under a quick fuzz pass (the >= 1 M input run is
# bench/bench_fw_fuzz.py). See fwfuzz.py for the five kinds of input and what is checked.
import fwfuzz


def _run(seed, n, quadrature=False):
    fz = fwfuzz.Fuzzer(seed, quadrature=quadrature)
    failures = fz.run(n)
    assert not failures, failures[:3]
    assert fz.alive(), "the link no longer answers HELLO after the fuzz inputs"
    return fz


def test_receive_path_survives_fuzz_inputs_as5600_tray():
    fz = _run(1, 3000)
    # every kind was exercised, and commands really got through (not everything refused)
    assert min(fz.by_kind) > 300 and fz.link.deframer.ok > 1000


def test_receive_path_survives_fuzz_inputs_quadrature_tray():
    _run(2, 1500, quadrature=True)


def test_a_failure_would_be_reported_with_its_input():
    fz = fwfuzz.Fuzzer(3)

    def broken(data, now):
        raise ValueError("boom")

    fz.link.receive = broken
    fz.run(5)
    assert len(fz.failures) == 5 and "ValueError: boom" in fz.failures[0][2]
