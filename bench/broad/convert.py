#!/usr/bin/env python3
"""Converts the BROAD trials (Laidig et al., Data 2021) for `romdev replay --trace` and `romdev-bench broad`.

For every trial found in the input directory (NN_name.hdf5, else NN_name.mat; the dataset ships both
with the same content) it writes to the output directory:

  NN_name.csv        a recording in the `romdev record` format: time_s (sample index / sampling
                     rate), accelerometer in g, gyro in °/s, and a constant die temperature of 25 °C
                     (the dataset has none; the pipeline without a calibration does not use it);
  NN_name.truth.csv  time_s,gravity_x,gravity_y,gravity_z,movement: the optical reference's unit
                     "up" direction in the IMU frame (empty where the optical data is missing), and
                     whether the sample is in a movement phase (1) or not (0);

and broad.json, the converted trials in order with their groups, and the groups in the dataset's
order (from trials.json).

Usage: convert.py BROAD_DIR OUT_DIR
"""

import json
import sys
from pathlib import Path

import numpy as np

# The dataset's accelerometer is in m/s²; one g is standard gravity by definition of the unit.
STANDARD_GRAVITY = 9.80665
DIE_TEMPERATURE_C = 25.0


def load_trial(directory: Path, name: str):
    """The trial's arrays from its HDF5 file, else its MATLAB file; None when neither is there."""
    hdf5 = directory / f"{name}.hdf5"
    if hdf5.exists():
        import h5py
        with h5py.File(hdf5, "r") as f:
            return dict(
                acc=f["imu_acc"][:], gyr=f["imu_gyr"][:], quat=f["opt_quat"][:],
                movement=f["movement"][:].astype(bool), rate=float(f.attrs["sampling_rate"]))
    mat = directory / f"{name}.mat"
    if mat.exists():
        import scipy.io
        d = scipy.io.loadmat(mat)
        return dict(
            acc=d["imu_acc"], gyr=d["imu_gyr"], quat=d["opt_quat"],
            movement=d["movement"].reshape(-1).astype(bool), rate=float(d["sampling_rate"].item()))
    return None


def up_in_sensor_frame(quat: np.ndarray) -> np.ndarray:
    """The earth's up axis (ENU z) seen from the sensor, for sensor-to-earth unit quaternions (w, x, y, z):
    the third row of the rotation matrix. Rows with a missing quaternion stay NaN."""
    norm = np.linalg.norm(quat, axis=1, keepdims=True)
    w, x, y, z = (quat / norm).T
    return np.column_stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)])


def fmt(values: np.ndarray, digits: int) -> np.ndarray:
    return np.char.mod(f"%.{digits}f", values)


def write_trial(data, recording: Path, truth: Path) -> None:
    n = len(data["acc"])
    time = np.arange(n) / data["rate"]
    acc = data["acc"] / STANDARD_GRAVITY
    gyr = np.rad2deg(data["gyr"])
    if not (np.isfinite(acc).all() and np.isfinite(gyr).all()):
        raise SystemExit(f"{recording.stem}: the IMU data has non-finite values")
    columns = [fmt(time, 6)] + [fmt(acc[:, i], 7) for i in range(3)] + [fmt(gyr[:, i], 6) for i in range(3)]
    columns.append(np.full(n, f"{DIE_TEMPERATURE_C:.1f}"))
    rows = [",".join(r) for r in zip(*columns)]
    recording.write_text("time_s,accel_x_g,accel_y_g,accel_z_g,gyro_x_dps,gyro_y_dps,gyro_z_dps,temp_c\n"
                         + "\n".join(rows) + "\n")

    up = up_in_sensor_frame(data["quat"])
    present = np.isfinite(up).all(axis=1)
    text = ["time_s,gravity_x,gravity_y,gravity_z,movement"]
    for i in range(n):
        g = ",".join(f"{v:.7f}" for v in up[i]) if present[i] else ",,"
        text.append(f"{time[i]:.6f},{g},{int(data['movement'][i])}")
    truth.write_text("\n".join(text) + "\n")


def main() -> None:
    if len(sys.argv) != 3:
        sys.stderr.write("usage: convert.py BROAD_DIR OUT_DIR\n")
        sys.exit(64)
    source, out = Path(sys.argv[1]), Path(sys.argv[2])
    info_path = next((p for p in (source / "trials.json", source / "data_hdf5" / "trials.json",
                                  source / "data_mat" / "trials.json") if p.exists()), None)
    if info_path is None:
        sys.stderr.write(f"error: no trials.json in {source} (expected the dataset's data_hdf5 or data_mat folder)\n")
        sys.exit(66)
    info = json.loads(info_path.read_text())
    out.mkdir(parents=True, exist_ok=True)
    converted, missing = [], []
    for name, trial in info["trials"].items():
        data = None
        for directory in (source, source / "data_hdf5", source / "data_mat"):
            data = load_trial(directory, name)
            if data is not None:
                break
        if data is None:
            missing.append(name)
            continue
        write_trial(data, out / f"{name}.csv", out / f"{name}.truth.csv")
        converted.append(dict(name=name, groups=trial["groups"]))
        print(f"converted {name} ({len(data['acc'])} samples at {data['rate']:.2f} Hz)", flush=True)
    if not converted:
        sys.stderr.write(f"error: none of the {len(info['trials'])} trials is in {source}\n")
        sys.exit(66)
    manifest = dict(groups=[g["name"] for g in info["groups"]], trials=converted)
    (out / "broad.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"{len(converted)} trials converted to {out}" + (f"; not found: {', '.join(missing)}" if missing else ""))


if __name__ == "__main__":
    main()
