# Issue 9: the calibration on the board's flash (dialrig.calstore), in MicroPython: saved through a
# temporary file and a rename, checksummed, loaded at boot only when sound.
import os

from dialrig import calstore, config

DIR = "/tmp/dialrig-calstore-test"


def setup():
    try:
        os.mkdir(DIR)
    except OSError:
        pass
    for name in (calstore.FILE, calstore.TMP):
        try:
            os.remove(DIR + "/" + name)
        except OSError:
            pass


def _calibrated(zero=1234, direction=-1):
    cfg = config.default_config(2)
    cfg["docks"][1][0]["zero"] = zero
    cfg["docks"][1][0]["direction"] = direction
    return cfg


def test_a_saved_calibration_is_loaded_with_its_checksum():
    cal = _calibrated()
    crc = calstore.save(cal["docks"], DIR)
    cfg = config.default_config(2)
    status, got = calstore.load(cfg, DIR)
    assert status == calstore.STORED_OK and got == crc == calstore.checksum(cal["docks"])
    assert cfg["docks"][1][0]["zero"] == 1234 and cfg["docks"][1][0]["direction"] == -1


def test_no_file_means_defaults():
    cfg = config.default_config(2)
    assert calstore.load(cfg, DIR) == (calstore.STORED_NONE, 0)
    assert cfg == config.default_config(2)


def test_a_save_cut_before_the_rename_leaves_the_old_calibration():
    old = _calibrated(zero=100)
    calstore.save(old["docks"], DIR)
    new = _calibrated(zero=200)
    f = calstore.begin(DIR)
    lines = calstore.lines(new["docks"])
    for line in lines[: len(lines) // 2]:
        f.write(line)
    f.close()  # the power went here: no rename
    cfg = config.default_config(2)
    assert calstore.load(cfg, DIR) == (calstore.STORED_OK, calstore.checksum(old["docks"]))
    assert cfg["docks"][1][0]["zero"] == 100


def _write(text):
    with open(DIR + "/" + calstore.FILE, "w") as f:
        f.write(text)


def test_a_damaged_or_truncated_file_is_ignored():
    text = calstore.encode(_calibrated()["docks"])
    for bad in (text[: len(text) // 2], text.replace("1234", "1235"), "", "hello\n"):
        _write(bad)
        cfg = config.default_config(2)
        assert calstore.load(cfg, DIR) == (calstore.STORED_BAD, 0), bad
        assert cfg == config.default_config(2)


def test_a_file_putting_two_dials_on_one_sensor_is_ignored():
    cal = config.default_config(2)
    cal["docks"][1][1]["channel"] = 0  # dock 0 combat's sensor
    _write(calstore.encode(cal["docks"]))
    cfg = config.default_config(2)
    assert calstore.load(cfg, DIR)[0] == calstore.STORED_BAD
    assert cfg == config.default_config(2)


def test_a_file_for_another_tray_size_is_ignored():
    calstore.save(config.default_config(3)["docks"], DIR)
    cfg = config.default_config(2)
    assert calstore.load(cfg, DIR)[0] == calstore.STORED_BAD


def test_a_temporary_file_left_by_a_cut_is_removed_at_load():
    calstore.save(_calibrated()["docks"], DIR)
    with open(DIR + "/" + calstore.TMP, "w") as f:
        f.write("dialrig-cal 1 000")
    calstore.load(config.default_config(2), DIR)
    left = True
    try:
        open(DIR + "/" + calstore.TMP).close()
    except OSError:
        left = False
    assert not left, "the temporary file is still there"
