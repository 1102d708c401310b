#!/usr/bin/python3
"""Trains goref's learned stone classifier (vision/cnn.h) on the patches that
`goref eval --dump-patches OUT` writes, and writes its weights.

Run through samples/train_classifier.sh (one command: builds goref, dumps the
patches of ../shared/datasets, trains, writes vision/cnn_weights.c). Needs
Debian's python3-torch and python3-numpy (/usr/bin/python3), one core.

The patches (goref eval --dump-patches, format in device/app/cmd_vision.c):
one file per photo and grid (the locator's when it found the board, the
clicked corners' where corners.json has them), 361 patches of 40 x 40 RGB
pixels spanning 3.33 cells (12 px a cell) around each point, the true colour
of each point, and the photo's board colour (median of the squares' centres).
The network sees 24 x 24 pixels (2 cells) drawn from them, divided by the
board colour, less 1 (cnn.h).

Sources (for leaving one out): imago/t1, imago/t2 (with skip/), imago/t3,
gomrade (1-5 and testing_sequence), gobanwatcher/1, gobanwatcher/3.
"""
import argparse
import math
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

PATCH = 24      # GV_CNN_PATCH
SPAN = 2.0      # GV_CNN_SPAN
CHANS = (8, 16, 32)
SHADOWS = False  # the cast-shadow augmentation (make_batch; tried, not used: README)

GROUPS = ["imago/t1", "imago/t2", "imago/t3", "gomrade", "gobanwatcher/1", "gobanwatcher/3"]


def group_of(source):
    for g in GROUPS:
        if source == g or source.startswith(g + "/") or source.endswith("/" + g) or ("/" + g + "/") in source:
            return g
    if "gomrade" in source:
        return "gomrade"
    return source


def load(folder):
    """All patches: X uint8 [N, D, D, 3], board float32 [N, 3], y [N],
    rules cell [N], rules conf [N], group index [N], photo-grid index [N],
    and the list of (file, source, photo, kind)."""
    entries = []
    with open(os.path.join(folder, "index.tsv")) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 4:
                entries.append(parts)
    Xs, boards, ys, cells, confs, groups, pg = [], [], [], [], [], [], []
    for n, (fn, source, photo, kind) in enumerate(entries):
        with open(os.path.join(folder, fn), "rb") as f:
            data = f.read()
        assert data[:8] == b"GRPATCH1", fn
        D, span = struct.unpack_from("<if", data, 8)
        board = struct.unpack_from("<3f", data, 16)
        size, = struct.unpack_from("<i", data, 28)
        rec = 4 + D * D * 3
        arr = np.frombuffer(data, dtype=np.uint8, offset=32).reshape(size * size, rec)
        ys.append(arr[:, 0].astype(np.int64))
        cells.append(arr[:, 1].astype(np.int64))
        confs.append(arr[:, 2].astype(np.float32) / 255)
        Xs.append(arr[:, 4:].reshape(-1, D, D, 3).copy())
        boards.append(np.tile(np.array(board, np.float32), (size * size, 1)))
        g = group_of(source)
        groups.append(np.full(size * size, GROUPS.index(g) if g in GROUPS else -1))
        pg.append(np.full(size * size, n))
    return (np.concatenate(Xs), np.concatenate(boards), np.concatenate(ys), np.concatenate(cells),
            np.concatenate(confs), np.concatenate(groups), np.concatenate(pg), entries, D, span)


class Net(nn.Module):
    def __init__(self, chans=CHANS):
        super().__init__()
        layers, cin = [], 3
        for c in chans:
            layers += [nn.Conv2d(cin, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(), nn.MaxPool2d(2)]
            cin = c
        self.features = nn.Sequential(*layers)
        s = PATCH >> len(chans)
        self.fc = nn.Linear(cin * s * s, 3)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def gaussian_blur(x, sigma):
    """Per-sample Gaussian blur (sigma in pixels, a tensor [B]; 5 taps)."""
    t = torch.arange(-2, 3, dtype=torch.float32)
    k = torch.exp(-t[None, :] ** 2 / (2 * sigma[:, None].clamp(min=1e-3) ** 2))
    k = k / k.sum(1, keepdim=True)  # [B, 5]
    B, C, H, W = x.shape
    xp = F.pad(x, (2, 2, 2, 2), mode="replicate")
    # separable: rows then columns, per sample
    out = sum(k[:, i, None, None, None] * xp[:, :, :, i:i + W] for i in range(5))
    out = sum(k[:, i, None, None, None] * out[:, :, i:i + H, :] for i in range(5))
    return out


def make_batch(X, board, idx, D, span, augment, gen):
    """The network's input for patches idx: [B, 3, PATCH, PATCH]."""
    x = torch.from_numpy(X[idx]).float().permute(0, 3, 1, 2)  # B,3,D,D (0..255)
    b = torch.from_numpy(board[idx]).clamp(min=1.0)
    x = x / b[:, :, None, None]  # wood about 1
    B = x.shape[0]
    if augment and SHADOWS:
        # a neighbour's cast shadow: a disc a stone wide, 0.3-0.9 cell from
        # the point, darker by a share (a low lamp: dark crescents beside
        # stones, which must not read as black stones)
        cell = D / span
        sh = torch.rand(B, generator=gen) < 0.3
        if sh.any():
            k = int(sh.sum())
            ang = torch.rand(k, generator=gen) * 2 * math.pi
            dist = (0.3 + torch.rand(k, generator=gen) * 0.6) * cell
            rad = (0.42 + torch.rand(k, generator=gen) * 0.12) * cell
            depth = 0.3 + torch.rand(k, generator=gen) * 0.5
            yy, xx = torch.meshgrid(torch.arange(D, dtype=torch.float32) - (D - 1) / 2,
                                    torch.arange(D, dtype=torch.float32) - (D - 1) / 2, indexing="ij")
            cx, cy = (dist * torch.cos(ang))[:, None, None], (dist * torch.sin(ang))[:, None, None]
            d = torch.sqrt((xx[None] - cx) ** 2 + (yy[None] - cy) ** 2)
            m = ((rad[:, None, None] - d) / 1.5).clamp(0, 1)  # soft edge
            x[sh] = x[sh] * (1 - (1 - depth)[:, None, None, None] * m[:, None])
    crop = PATCH / D * (SPAN / (PATCH * span / D))  # share of the dump the patch spans
    # identity: the centred PATCH pixels of the D (same pitch)
    crop = PATCH / D
    if augment:
        cell = D / span  # pixels a cell in the dump
        scale = torch.exp((torch.rand(B, generator=gen) * 2 - 1) * math.log(1.15))
        ang = (torch.rand(B, generator=gen) * 2 - 1) * math.radians(8)
        shift = (torch.rand(B, 2, generator=gen) * 2 - 1) * 0.25 * cell * 2 / D  # normalised
        ca, sa = torch.cos(ang) * scale * crop, torch.sin(ang) * scale * crop
        theta = torch.stack([torch.stack([ca, -sa, shift[:, 0]], 1), torch.stack([sa, ca, shift[:, 1]], 1)], 1)
        # flips and transposes (the board's symmetries)
        fx = torch.where(torch.rand(B, generator=gen) < 0.5, -1.0, 1.0)
        fy = torch.where(torch.rand(B, generator=gen) < 0.5, -1.0, 1.0)
        theta[:, :, 0] *= fx[:, None]
        theta[:, :, 1] *= fy[:, None]
        tr = torch.rand(B, generator=gen) < 0.5
        theta[tr] = theta[tr][:, :, [1, 0, 2]]
    else:
        theta = torch.tensor([[crop, 0, 0], [0, crop, 0]], dtype=torch.float32).repeat(B, 1, 1)
    grid = F.affine_grid(theta, (B, 3, PATCH, PATCH), align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
    if augment:
        # the board's colour misjudged, a light that is not a product of
        # channels (gamma per channel), contrast, saturation, blur, noise
        x = x * torch.exp(torch.randn(B, 3, 1, 1, generator=gen) * 0.08 + torch.randn(B, 1, 1, 1, generator=gen) * 0.1)
        g = torch.exp((torch.rand(B, 3, 1, 1, generator=gen) * 2 - 1) * math.log(1.4))
        x = x.clamp(min=0) ** g
        c = torch.exp((torch.rand(B, 1, 1, 1, generator=gen) * 2 - 1) * math.log(1.35))
        x = 1 + (x - 1) * c
        m = x.mean(1, keepdim=True)
        s = torch.exp((torch.rand(B, 1, 1, 1, generator=gen) * 2 - 1) * math.log(1.6))
        x = m + (x - m) * s
        x = x + (torch.rand(B, 3, 1, 1, generator=gen) * 2 - 1) * 0.05
        blur = torch.rand(B, generator=gen) < 0.35
        if blur.any():
            sig = 0.4 + torch.rand(int(blur.sum()), generator=gen) * 0.8
            x[blur] = gaussian_blur(x[blur], sig)
        x = x + torch.randn(x.shape, generator=gen) * (torch.rand(B, 1, 1, 1, generator=gen) * 0.04)
    return x - 1


def train(X, board, y, sel, D, span, epochs, seed, log):
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=3e-3, weight_decay=1e-4)
    idx_all = np.nonzero(sel)[0]
    bs = 256
    steps = epochs * ((len(idx_all) + bs - 1) // bs)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    yt = torch.from_numpy(y)
    rng = np.random.default_rng(seed)
    for ep in range(epochs):
        t0 = time.time()
        net.train()
        perm = rng.permutation(idx_all)
        tot, nb, right = 0.0, 0, 0
        for s in range(0, len(perm), bs):
            idx = perm[s:s + bs]
            xb = make_batch(X, board, idx, D, span, True, gen)
            out = net(xb)
            loss = F.cross_entropy(out, yt[idx], label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss) * len(idx)
            nb += len(idx)
            right += int((out.argmax(1) == yt[idx]).sum())
        log("epoch %d: loss %.4f, %.3f%% right (augmented), %.0f s" % (ep + 1, tot / nb, 100.0 * right / nb, time.time() - t0))
    net.eval()
    return net


def predict(net, X, board, idx, D, span):
    out = []
    with torch.no_grad():
        for s in range(0, len(idx), 1024):
            xb = make_batch(X, board, idx[s:s + 1024], D, span, False, None)
            out.append(F.softmax(net(xb), 1).numpy())
    return np.concatenate(out) if out else np.zeros((0, 3), np.float32)


def folded(net):
    """The layers with the batch norms folded in: [(w, b)] convs, [(w, b)] dense."""
    convs, mods = [], list(net.features)
    for k in range(0, len(mods), 4):
        conv, bn = mods[k], mods[k + 1]
        s = bn.weight.detach() / torch.sqrt(bn.running_var + bn.eps)
        w = conv.weight.detach() * s[:, None, None, None]
        b = (conv.bias.detach() - bn.running_mean) * s + bn.bias.detach()
        convs.append((w.numpy().astype(np.float32), b.numpy().astype(np.float32)))
    dense = [(net.fc.weight.detach().numpy().astype(np.float32), net.fc.bias.detach().numpy().astype(np.float32))]
    return convs, dense


def write_bin(net, path):
    convs, dense = folded(net)
    with open(path, "wb") as f:
        f.write(b"GRCNN01\n")
        f.write(struct.pack("<ifi", PATCH, SPAN, len(convs)))
        for w, b in convs:
            f.write(struct.pack("<ii", w.shape[1], w.shape[0]))
            f.write(w.astype("<f4").tobytes())
            f.write(b.astype("<f4").tobytes())
        f.write(struct.pack("<i", len(dense)))
        for w, b in dense:
            f.write(struct.pack("<ii", w.shape[1], w.shape[0]))
            f.write(w.astype("<f4").tobytes())
            f.write(b.astype("<f4").tobytes())


def write_c(net, path, note):
    convs, dense = folded(net)
    out = ["/* Generated by samples/train_classifier.py: do not edit. %s */" % note,
           '#include "cnn.h"', ""]

    def arr(name, a):
        flat = a.ravel()
        out.append("static const float %s[%d] = {" % (name, len(flat)))
        for s in range(0, len(flat), 8):
            out.append("\t" + ", ".join("%.9gf" % float(v) if math.isfinite(v) else "0.0f" for v in flat[s:s + 8]) + ",")
        out.append("};")
    for k, (w, b) in enumerate(convs):
        arr("conv%d_w" % k, w)
        arr("conv%d_b" % k, b)
    for k, (w, b) in enumerate(dense):
        arr("dense%d_w" % k, w)
        arr("dense%d_b" % k, b)
    out.append("")
    out.append("const gv_cnn gv_cnn_builtin = {")
    out.append("\t.patch = %d," % PATCH)
    out.append("\t.span = %.1ff," % SPAN)
    out.append("\t.nconv = %d," % len(convs))
    out.append("\t.ndense = %d," % len(dense))
    out.append("\t.conv = {" + ", ".join("{%d, %d, conv%d_w, conv%d_b}" % (w.shape[1], w.shape[0], k, k) for k, (w, b) in enumerate(convs)) + "},")
    out.append("\t.dense = {" + ", ".join("{%d, %d, dense%d_w, dense%d_b}" % (w.shape[1], w.shape[0], k, k) for k, (w, b) in enumerate(dense)) + "},")
    out.append("};")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def table(work):
    """The held-out table (markdown) from the goref eval --json files that
    train_classifier.sh --heldout wrote."""
    import json

    def pct(a, b):
        return "%.3f%%" % (100.0 * a / b) if b else "-"

    def fig(t):
        sure = "%d of %d (%s)" % (t["sure_right"], t["sure"], pct(t["sure_right"], t["sure"])) if t["sure"] else "none sure"
        return "%d of %d (%s) | %d of %d | %s" % (t["points_right"], t["points"], pct(t["points_right"], t["points"]),
                                                t["boards_right"], t["photos"], sure)
    rows = ["| source (held out) | classifier | boards found | points right | boards right | sure right "
            "| clicked: points right | clicked: boards right | clicked: sure right | ms a photo |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for src in GROUPS:
        tag = src.replace("/", "-")
        for c in ("rules", "cnn", "both"):
            path = os.path.join(work, "eval-%s-%s.json" % (tag, c))
            if not os.path.exists(path):
                continue
            with open(path) as f:
                t = json.load(f)["total"]
            cl = fig(t["clicked"]) if "clicked" in t else "| |"
            rows.append("| %s | %s | %d of %d | %s | %s | %.0f |" % (src, c, t["boards_found"], t["photos"], fig(t), cl,
                                                                 t["ms_mean"]))
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--patches", help="the folder goref eval --dump-patches wrote")
    ap.add_argument("--holdout", default="", help="a source left out of training (one of %s)" % ", ".join(GROUPS))
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out-bin", help="the weights in the binary format of vision/cnn.h")
    ap.add_argument("--out-c", help="the weights as C source (vision/cnn_weights.c)")
    ap.add_argument("--out-pred", help="the held-out source's probabilities (.npz) for analysis")
    ap.add_argument("--untrained", action="store_true", help="write an untrained network (no patches needed)")
    ap.add_argument("--shadows", action="store_true", help="with the cast-shadow augmentation (tried, not used)")
    ap.add_argument("--table", metavar="WORK", help="print the held-out table from WORK's evaluations")
    a = ap.parse_args()
    torch.set_num_threads(1)
    if a.table:
        print(table(a.table))
        return
    global SHADOWS
    SHADOWS = a.shadows

    def log(m):
        print(m, flush=True)
    if a.untrained:
        torch.manual_seed(a.seed)
        net = Net().eval()
        note = "Untrained."
    else:
        X, board, y, cells, confs, groups, pg, entries, D, span = load(a.patches)
        log("%d patches from %d photo-grids; per source: %s" % (len(y), len(entries), ", ".join(
            "%s %d" % (g, int((groups == k).sum())) for k, g in enumerate(GROUPS))))
        sel = np.ones(len(y), bool)
        if a.holdout:
            if a.holdout not in GROUPS:
                sys.exit("unknown source %s" % a.holdout)
            sel = groups != GROUPS.index(a.holdout)
        t0 = time.time()
        net = train(X, board, y, sel, D, span, a.epochs, a.seed, log)
        log("trained in %.0f s" % (time.time() - t0))
        note = "Trained on every source but %s." % a.holdout if a.holdout else "Trained on every source of ../shared/datasets."
        note += " %d epochs, seed %d." % (a.epochs, a.seed)
        if a.holdout:
            idx = np.nonzero(~sel)[0]
            p = predict(net, X, board, idx, D, span)
            right = (p.argmax(1) == y[idx]).mean()
            log("held out %s (patches, the C program's figures are goref eval's): %.3f%% right" % (a.holdout, 100 * right))
            if a.out_pred:
                np.savez(a.out_pred, idx=idx, p=p, y=y[idx], cells=cells[idx], confs=confs[idx], pg=pg[idx])
    if a.out_bin:
        write_bin(net, a.out_bin)
    if a.out_c:
        write_c(net, a.out_c, note)


if __name__ == "__main__":
    main()
