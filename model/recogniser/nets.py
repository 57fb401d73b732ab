"""The three networks, small enough for a Raspberry Pi's CPU.

Locator: a depthwise-separable encoder down to 1/32 and a light feature pyramid back up to 1/4
of the frame, ending in the heads of the contract (CenterNet-style); the ``fine`` locator has one
more block at 1/2 and two more at 1/4, for indices only a few pixels wide (see ``grow.py``).
Classifier: a small VGG-like stack on 48×32 upright index crops. Verifier: a smaller one on 48×48
crops of an index with the card around it. Refiner: another on 32×32 crops around a mark, giving
where the index truly lies.
"""

from __future__ import annotations

import torch
from torch import nn

from scanner.vision import contract as spec


def conv_bn(cin: int, cout: int, stride: int = 1, k: int = 3) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(True)
    )


class DwSep(nn.Module):
    """Depthwise 3×3 then pointwise 1×1, with a residual when shapes allow."""

    def __init__(self, cin: int, cout: int, stride: int = 1) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False),
            nn.BatchNorm2d(cin),
            nn.ReLU(True),
            nn.Conv2d(cin, cout, 1, bias=False),
            nn.BatchNorm2d(cout),
        )
        self.residual = stride == 1 and cin == cout
        self.act = nn.ReLU(True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.body(x)
        return self.act(y + x if self.residual else y)


class Locator(nn.Module):
    def __init__(self, width: float = 1.0, fine: bool = False) -> None:
        super().__init__()
        c = [max(8, int(n * width)) for n in (16, 24, 48, 96, 128)]
        self.fine = fine
        self.stem = conv_bn(3, c[0], 2)  # 1/2
        # The fine blocks come after the plain ones' names, so a plain locator's weights load.
        self.s2 = DwSep(c[0], c[0]) if fine else nn.Identity()
        extra = [DwSep(c[1], c[1]) for _ in range(2 if fine else 0)]
        self.s4 = nn.Sequential(DwSep(c[0], c[1], 2), DwSep(c[1], c[1]), *extra)  # 1/4
        self.s8 = nn.Sequential(DwSep(c[1], c[2], 2), DwSep(c[2], c[2]))  # 1/8
        self.s16 = nn.Sequential(DwSep(c[2], c[3], 2), DwSep(c[3], c[3]), DwSep(c[3], c[3]))
        self.s32 = nn.Sequential(DwSep(c[3], c[4], 2), DwSep(c[4], c[4]))  # 1/32
        self.lat16 = nn.Conv2d(c[3], 64, 1)
        self.top = nn.Conv2d(c[4], 64, 1)
        self.mix16 = DwSep(64, 48)
        self.lat8 = nn.Conv2d(c[2], 48, 1)
        self.mix8 = DwSep(48, 32)
        self.lat4 = nn.Conv2d(c[1], 32, 1)
        self.mix4 = DwSep(32, 32)
        self.head = nn.Sequential(DwSep(32, 32), nn.Conv2d(32, spec.HEAD_CHANNELS, 1))
        with torch.no_grad():  # start with few index marks: the focal loss's usual prior
            self.head[-1].bias[spec.HEAT].fill_(-4.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        up = nn.functional.interpolate
        f4 = self.s4(self.s2(self.stem(x)))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        p16 = self.mix16(self.lat16(f16) + up(self.top(f32), scale_factor=2.0, mode="nearest"))
        p8 = self.mix8(self.lat8(f8) + up(p16, scale_factor=2.0, mode="nearest"))
        p4 = self.mix4(self.lat4(f4) + up(p8, scale_factor=2.0, mode="nearest"))
        out = self.head(p4)
        heat = torch.sigmoid(out[:, spec.HEAT : spec.HEAT + 1])
        return torch.cat([heat, out[:, spec.HEAT + 1 :]], dim=1)

    def raw(self, x: torch.Tensor) -> torch.Tensor:
        """The heads before the sigmoid on the heat (for a numerically stable loss)."""
        out = self.forward(x)
        heat = out[:, :1].clamp(1e-6, 1 - 1e-6)
        return torch.cat([torch.log(heat / (1 - heat)), out[:, 1:]], dim=1)


class Classifier(nn.Module):
    def __init__(self, classes: int = len(spec.CLASSES)) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(3, 16),
            conv_bn(16, 24, 2),  # 24×16
            conv_bn(24, 32),
            conv_bn(32, 48, 2),  # 12×8
            conv_bn(48, 64),
            nn.MaxPool2d(2),  # 6×4
            conv_bn(64, 96),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(96 * 6 * 4, classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


class FaceReader(nn.Module):
    """A card's whole face, cut out upright (``spec.FACE_*``) → one logit per class, as the
    classifier's: its rank and colour from the numeral, word or pips in its middle."""

    def __init__(self, classes: int = len(spec.CLASSES)) -> None:
        super().__init__()
        self.body = nn.Sequential(
            conv_bn(3, 24, 2),  # 34×24
            conv_bn(24, 48, 2),  # 17×12
            conv_bn(48, 64),
            conv_bn(64, 96, 2),  # 9×6
            conv_bn(96, 128, 2),  # 5×3
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(128, classes),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


class Verifier(nn.Module):
    """Is a marked index printed on a card? A square crop of the index with the paper and the
    card's corner around it (``spec.VERIFY_*``) → one logit."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            conv_bn(3, 16, 2),  # 24×24
            conv_bn(16, 32),
            nn.MaxPool2d(2),  # 12×12
            conv_bn(32, 48),
            conv_bn(48, 64, 2),  # 6×6
            conv_bn(64, 64),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(64, 1),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


class Refiner(nn.Module):
    """Where does the index a mark was made for truly lie? A square crop centred on the mark
    (``spec.REFINE_*``) → its centre, size and angle against the mark's (``spec.REFINED``).
    Flattened, not pooled: the answer is a place in the crop."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            conv_bn(3, 16),
            conv_bn(16, 24, 2),  # 16×16
            conv_bn(24, 32),
            conv_bn(32, 48, 2),  # 8×8
            conv_bn(48, 64),
            conv_bn(64, 64, 2),  # 4×4
            nn.Flatten(),
            nn.Linear(64 * 4 * 4, len(spec.REFINED)),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)
