"""A small PNG reader for the report tests: 8-bit grey, RGB, grey+alpha and
RGBA images, not interlaced (what Chromium's screenshots are), decoded with
zlib and the five PNG row filters. Only the standard library.

    img = read_png(path, max_rows=None)
    img.width, img.height, img.pixel(x, y) -> (r, g, b)
"""
import struct
import zlib

_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


class Image:
    def __init__(self, width, height, channels, rows):
        self.width, self.height, self.channels, self.rows = width, height, channels, rows

    def pixel(self, x, y):
        row, c = self.rows[y], self.channels
        if c >= 3:
            return row[x * c], row[x * c + 1], row[x * c + 2]
        v = row[x * c]
        return v, v, v


def _paeth_row(cur, prev, bpp):
    # cur holds the filtered bytes; prev the previous row, decoded
    n = len(cur)
    for i in range(n):
        a = cur[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        if pa <= pb and pa <= pc:
            pr = a
        elif pb <= pc:
            pr = b
        else:
            pr = c
        cur[i] = (cur[i] + pr) & 255


def read_png(path, max_rows=None):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    pos, idat, ihdr = 8, [], None
    while pos + 8 <= len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    if not ihdr:
        raise ValueError(f"{path}: no IHDR chunk")
    width, height, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in _CHANNELS or interlace:
        raise ValueError(f"{path}: unsupported PNG (bit depth {depth}, colour type {ctype}, interlace {interlace})")
    bpp = _CHANNELS[ctype]
    stride = width * bpp
    raw = zlib.decompress(b"".join(idat))
    nrows = height if max_rows is None else min(height, max_rows)
    rows, prev = [], bytearray(stride)
    for y in range(nrows):
        f = raw[y * (stride + 1)]
        cur = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:  # Sub
            for i in range(bpp, stride):
                cur[i] = (cur[i] + cur[i - bpp]) & 255
        elif f == 2:  # Up
            cur = bytearray((a + b) & 255 for a, b in zip(cur, prev))
        elif f == 3:  # Average
            for i in range(stride):
                left = cur[i - bpp] if i >= bpp else 0
                cur[i] = (cur[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            _paeth_row(cur, prev, bpp)
        elif f != 0:
            raise ValueError(f"{path}: bad filter {f} on row {y}")
        rows.append(bytes(cur))
        prev = cur
    return Image(width, nrows, bpp, rows)
