"""ResNet (He et al. 2016) with basic or bottleneck blocks, BatchNorm in train mode.

``resnet(layout, ...)`` builds the standard layouts: ``"resnet18"`` (basic blocks [2, 2, 2, 2],
widths 64-512) and ``"resnet50"`` (bottleneck blocks [3, 4, 6, 3], widths 64-512, 4x
expansion), with the ImageNet stem (7x7/2 conv, max-pool) by default. torchvision is not used;
the blocks follow its v1.5 layout (a bottleneck's stride sits on its 3x3 conv).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["BasicBlock", "Bottleneck", "LAYOUTS", "ResNet", "resnet"]


def _downsample(cin: int, cout: int, stride: int) -> nn.Module | None:
    if stride == 1 and cin == cout:
        return None
    return nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, cin: int, width: int, stride: int):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, width, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.down = _downsample(cin, width, stride)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(y + (x if self.down is None else self.down(x)))


class Bottleneck(nn.Module):
    expansion = 4

    def __init__(self, cin: int, width: int, stride: int):
        super().__init__()
        cout = width * self.expansion
        self.conv1 = nn.Conv2d(cin, width, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, cout, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(cout)
        self.down = _downsample(cin, cout, stride)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = F.relu(self.bn2(self.conv2(y)))
        y = self.bn3(self.conv3(y))
        return F.relu(y + (x if self.down is None else self.down(x)))


_BLOCKS = {"basic": BasicBlock, "bottleneck": Bottleneck}


class ResNet(nn.Module):
    """``layers[i]`` blocks of width ``widths[i]`` per stage, the first block of every stage
    after the first with stride 2. ``imagenet_stem``: the 7x7/2 conv plus 3x3/2 max-pool
    stem; otherwise the 3x3 CIFAR stem."""

    def __init__(self, layers, widths, num_classes: int, imagenet_stem: bool,
                 block: str = "basic"):
        super().__init__()
        if block not in _BLOCKS:
            raise ValueError(f"ResNet: block = {block!r} is not one of {tuple(_BLOCKS)}")
        if len(layers) != len(widths) or not layers:
            raise ValueError(f"ResNet: layers {tuple(layers)} and widths {tuple(widths)} must "
                             "be non-empty and of one length")
        kind = _BLOCKS[block]
        w0 = widths[0]
        if imagenet_stem:
            self.stem = nn.Sequential(nn.Conv2d(3, w0, 7, 2, 3, bias=False), nn.BatchNorm2d(w0),
                                      nn.ReLU(), nn.MaxPool2d(3, 2, 1))
        else:
            self.stem = nn.Sequential(nn.Conv2d(3, w0, 3, 1, 1, bias=False), nn.BatchNorm2d(w0),
                                      nn.ReLU())
        blocks, cin = [], w0
        for i, (n, w) in enumerate(zip(layers, widths)):
            for j in range(n):
                blocks.append(kind(cin, w, 2 if (j == 0 and i > 0) else 1))
                cin = w * kind.expansion
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, num_classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


# layout -> (block, layers per stage)
LAYOUTS = {
    "resnet18": ("basic", (2, 2, 2, 2)),
    "resnet34": ("basic", (3, 4, 6, 3)),
    "resnet50": ("bottleneck", (3, 4, 6, 3)),
    "resnet101": ("bottleneck", (3, 4, 23, 3)),
}


def resnet(layout: str, num_classes: int = 1000, widths=(64, 128, 256, 512),
           imagenet_stem: bool = True) -> ResNet:
    if layout not in LAYOUTS:
        raise ValueError(f"resnet: layout = {layout!r} is not one of {tuple(LAYOUTS)}")
    block, layers = LAYOUTS[layout]
    return ResNet(layers, widths, num_classes, imagenet_stem, block=block)
