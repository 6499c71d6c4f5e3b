"""Avatars: a generated set (SVG drawn here), or an upload re-encoded to a small WebP.

An upload is never served as sent: Pillow decodes it (PNG, JPEG, WebP or GIF only,
by content, not by name), the first frame is scaled into AVATAR_PIXELS square and
written again as WebP, which drops every metadata block (EXIF, XMP, ICC, comments) and
anything hidden after the image data (a polyglot). SVG is never accepted: it can carry
script. The result is stored in the database without the user's file name.
"""

from __future__ import annotations

import hashlib
import io
from typing import Any
from xml.sax.saxutils import escape

from django.conf import settings
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

# What Pillow may decode: anything else (SVG, TIFF, PSD, EPS...) is refused unread.
ACCEPTED_FORMATS = ("PNG", "JPEG", "WEBP", "GIF")
# Pillow refuses images above this many pixels before decoding them (decompression bombs).
MAX_PIXELS = 4096 * 4096


class AvatarRefused(ValueError):
    """An avatar the player must change; ``message`` says why in their language."""

    MESSAGES = {
        "bad_choice": lambda: _("Choose one of the avatars shown."),
        "too_large": lambda: (
            _("The picture is larger than %(kb)s KB.")
            % {"kb": settings.PROFILES_AVATAR_MAX_BYTES // 1024}
        ),
        "bad_type": lambda: _("Send a PNG, JPEG, WebP or GIF picture."),
        "too_many_pixels": lambda: _("The picture has too many pixels."),
    }

    def __init__(self, code: str) -> None:
        self.code = code
        super().__init__(code)

    @property
    def message(self) -> str:
        return str(self.MESSAGES[self.code]())


def reencode(upload: Any) -> tuple[bytes, str]:
    """(WebP bytes, content type) for an uploaded file; raises AvatarRefused."""
    if upload.size > settings.PROFILES_AVATAR_MAX_BYTES:
        raise AvatarRefused("too_large")
    raw = upload.read(settings.PROFILES_AVATAR_MAX_BYTES + 1)
    if len(raw) > settings.PROFILES_AVATAR_MAX_BYTES:
        raise AvatarRefused("too_large")
    try:
        with Image.open(io.BytesIO(raw), formats=ACCEPTED_FORMATS) as image:
            if image.width * image.height > MAX_PIXELS:
                raise AvatarRefused("too_many_pixels")
            image.seek(0)  # an animation keeps its first frame
            upright = ImageOps.exif_transpose(image)  # honour the rotation, then drop EXIF
            picture = upright.convert("RGBA")
    except (
        UnidentifiedImageError,
        OSError,
        SyntaxError,
        ValueError,
        Image.DecompressionBombError,
    ) as exc:
        if isinstance(exc, AvatarRefused):
            raise
        raise AvatarRefused("bad_type") from exc
    side = settings.PROFILES_AVATAR_PIXELS
    picture = ImageOps.fit(picture, (side, side), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    # No exif=, icc_profile= or xmp= arguments: the new file carries none of them.
    picture.save(out, format="WEBP", quality=82, method=4)
    return out.getvalue(), "image/webp"


# --- The generated set ----------------------------------------------------------------

PALETTE = (
    ("#0b3d26", "#f2c14e"),
    ("#1d4e89", "#f7f7f2"),
    ("#7a1f1f", "#f4d35e"),
    ("#2e294e", "#9bc53d"),
    ("#114b5f", "#e4fde1"),
    ("#5c2a9d", "#ffd6e0"),
)


def generated_svg(user_id: int, index: int) -> str:
    """A 5×5 mirrored identicon, the same for the same (user, index) on every server."""
    digest = hashlib.sha256(f"maubinh-avatar:{user_id}:{index}".encode()).digest()
    background, ink = PALETTE[index % len(PALETTE)]
    if index >= len(PALETTE):  # the second half of the set swaps the colours
        background, ink = ink, background
    cells = []
    for row in range(5):
        for col in range(3):
            if digest[row * 3 + col] % 2:
                for x in {col, 4 - col}:
                    cells.append(f'<rect x="{x + 1}" y="{row + 1}" width="1" height="1"/>')
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 7 7" width="128" height="128" '
        'shape-rendering="crispEdges">'
        f'<rect width="7" height="7" fill="{escape(background)}"/>'
        f'<g fill="{escape(ink)}">{"".join(cells)}</g></svg>'
    )
