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

from core.errors import Refusal

# What Pillow may decode: anything else (SVG, TIFF, PSD, EPS...) is refused unread.
ACCEPTED_FORMATS = ("PNG", "JPEG", "WEBP", "GIF")
# Pictures above this many pixels are refused before they are decoded (decompression bombs:
# a small file that would fill the memory); Pillow itself refuses those past twice its own
# limit as it opens them.
MAX_SIDE = 4096
MAX_PIXELS = MAX_SIDE * MAX_SIDE


class AvatarRefused(Refusal, ValueError):
    """An avatar the player must change; ``message`` says what happened, in their language."""

    MESSAGES = {
        "bad_choice": lambda size: _("Choose one of the avatars shown."),
        "too_large": lambda size: (
            _("The picture is larger than %(kb)s KB.")
            % {"kb": settings.PROFILES_AVATAR_MAX_BYTES // 1024}
        ),
        "empty": lambda size: _("The file is empty."),
        "bad_type": lambda size: _("Send a PNG, JPEG, WebP or GIF picture."),
        "damaged": lambda size: _(
            "The picture could not be read: the file is damaged or incomplete."
        ),
        "too_many_pixels": lambda size: (
            _(
                "The picture is %(width)s × %(height)s pixels: too large. Send one of at "
                "most %(side)s × %(side)s pixels."
            )
            % {"width": size[0], "height": size[1], "side": MAX_SIDE}
            if size
            else _("The picture has too many pixels: send one of at most %(side)s × %(side)s.")
            % {"side": MAX_SIDE}
        ),
    }

    def __init__(self, code: str, size: tuple[int, int] | None = None) -> None:
        super().__init__(code=code)
        self.size = size  # the picture's pixels, when they were what was wrong

    @property
    def message(self) -> str:
        return str(self.MESSAGES[self.code](self.size))


def _signed(raw: bytes) -> bool:
    """The file starts as one of the accepted formats does (a damaged picture of that kind)."""
    Image.init()
    return any(
        accept is not None and accept(raw[:16])
        for _factory, accept in (Image.OPEN[name] for name in ACCEPTED_FORMATS)
    )


def _header_size(raw: bytes) -> tuple[int, int] | None:
    """The width and height a picture's header declares, read without Pillow's bomb check
    (which refuses a huge one before saying how large it is); None if no format reads it."""
    Image.init()
    for name in ACCEPTED_FORMATS:
        factory, accept = Image.OPEN[name]
        if accept is not None and not accept(raw[:16]):
            continue
        try:
            with factory(io.BytesIO(raw), "") as image:  # reads the header only
                return image.size
        except Exception:  # not this format: try the next
            continue
    return None


def reencode(upload: Any) -> tuple[bytes, str]:
    """(WebP bytes, content type) for an uploaded file; raises AvatarRefused."""
    if upload.size > settings.PROFILES_AVATAR_MAX_BYTES:
        raise AvatarRefused("too_large")
    raw = upload.read(settings.PROFILES_AVATAR_MAX_BYTES + 1)
    if len(raw) > settings.PROFILES_AVATAR_MAX_BYTES:
        raise AvatarRefused("too_large")
    if not raw:
        raise AvatarRefused("empty")
    try:
        with Image.open(io.BytesIO(raw), formats=ACCEPTED_FORMATS) as image:
            if image.width * image.height > MAX_PIXELS:
                raise AvatarRefused("too_many_pixels", image.size)
            image.seek(0)  # an animation keeps its first frame
            upright = ImageOps.exif_transpose(image)  # honour the rotation, then drop EXIF
            picture = upright.convert("RGBA")
    except Image.DecompressionBombError as exc:
        raise AvatarRefused("too_many_pixels", _header_size(raw)) from exc
    except UnidentifiedImageError as exc:  # by content: which format it is, if any
        raise AvatarRefused("damaged" if _signed(raw) else "bad_type") from exc
    except AvatarRefused:
        raise
    except (OSError, SyntaxError, ValueError, EOFError) as exc:  # one of them, not decodable
        raise AvatarRefused("damaged") from exc
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
