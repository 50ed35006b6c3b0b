"""hane's network training: one model, one plane reader, one exporter, one
reference forward pass, one entry point (docs/network.md, "Training").

    model.py      the network: residual trunk with global pooling; policy
                  (with pass), value (or score) and ownership heads; the
                  training's reply head
    planes.py     what examples/write_planes writes, read; the symmetries
    export.py     the engine's weights file (version 6 written, 1-6 read)
    reference.py  the file's forward pass in float64: the golden file
    train.py      every head trained together, in steps, seeded, resumable
    sgf_lines.py  SGF games as the corpus's line form (a small corpus for a
                  check on a CPU)
    size_probe.py what a training step of each size costs on the machine

Run from the repository's root with `PYTHONPATH=scripts python3 -m
hane_train.train ...` (scripts/gpu_train.sh does). Needs PyTorch and numpy
(scripts/requirements.txt); sgf_lines.py needs neither.
"""
