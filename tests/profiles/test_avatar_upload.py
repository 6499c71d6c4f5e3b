"""Avatar uploads: only real pictures, re-encoded, stripped, capped, served as data."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from profiles import avatars, services
from profiles.models import UploadedAvatar

pytestmark = pytest.mark.django_db


def _png(size: tuple[int, int] = (40, 30), colour: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="PNG")
    return out.getvalue()


def _jpeg_with_exif() -> bytes:
    exif = Image.Exif()
    exif[0x013B] = "Secret Artist"  # Artist
    exif[0x010F] = "PhoneMaker"  # Make
    out = io.BytesIO()
    Image.new("RGB", (64, 64), "blue").save(out, format="JPEG", exif=exif.tobytes())
    return out.getvalue()


def _upload(client: Any, data: bytes, name: str = "me.png", kind: str = "image/png") -> Any:
    picture = SimpleUploadedFile(name, data, content_type=kind)
    return client.post(reverse("profiles:edit_avatar"), {"picture": picture})


@pytest.fixture
def player(client: Any, make_user: Any) -> Any:
    user = make_user("an")
    client.force_login(user)
    return user


def test_a_png_is_stored_as_a_square_webp_without_its_name(client: Any, player: Any) -> None:
    response = _upload(client, _png((400, 200)), name="../../etc/passwd.png")
    assert response.status_code == 302
    stored = UploadedAvatar.objects.get(user=player)
    assert stored.content_type == "image/webp"
    with Image.open(io.BytesIO(bytes(stored.data))) as image:
        assert image.format == "WEBP"
        assert image.size == (256, 256)
    assert b"passwd" not in bytes(stored.data)


def test_exif_is_stripped_from_an_uploaded_photo(client: Any, player: Any) -> None:
    assert b"Secret Artist" in _jpeg_with_exif()
    _upload(client, _jpeg_with_exif(), name="photo.jpg", kind="image/jpeg")
    data = bytes(UploadedAvatar.objects.get(user=player).data)
    assert b"Secret Artist" not in data and b"PhoneMaker" not in data
    with Image.open(io.BytesIO(data)) as image:
        assert not image.getexif()
        assert "exif" not in image.info and "icc_profile" not in image.info


def test_a_text_file_named_like_a_picture_is_refused(client: Any, player: Any) -> None:
    response = _upload(client, b"hello, not a picture" * 10, name="a.png")
    assert response.status_code == 400
    assert not UploadedAvatar.objects.filter(user=player).exists()


def test_an_svg_is_refused_whatever_it_is_called(client: Any, player: Any) -> None:
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    for name, kind in (("a.svg", "image/svg+xml"), ("a.png", "image/png")):
        assert _upload(client, svg, name=name, kind=kind).status_code == 400
    assert not UploadedAvatar.objects.filter(user=player).exists()


def test_a_polyglot_keeps_only_its_picture(client: Any, player: Any) -> None:
    """A PNG followed by HTML (a file that is both): only re-encoded pixels are kept."""
    payload = b"<html><script>alert(document.cookie)</script></html>"
    assert _upload(client, _png() + payload).status_code == 302
    assert payload not in bytes(UploadedAvatar.objects.get(user=player).data)
    assert b"<script" not in bytes(UploadedAvatar.objects.get(user=player).data)


def test_a_picture_above_the_size_limit_is_refused(client: Any, player: Any, settings: Any) -> None:
    settings.PROFILES_AVATAR_MAX_BYTES = 10_240
    big = _png((600, 600), "white")
    noisy = io.BytesIO()
    Image.effect_noise((300, 300), 90).convert("RGB").save(noisy, format="PNG")
    assert len(noisy.getvalue()) > 10_240
    assert _upload(client, noisy.getvalue()).status_code == 400
    assert _upload(client, big).status_code == 302  # small on disk: accepted


def test_a_picture_with_too_many_pixels_is_refused_before_decoding() -> None:
    out = io.BytesIO()
    Image.new("1", (5000, 5000)).save(out, format="PNG")  # tiny file, 25 M pixels
    with pytest.raises(avatars.AvatarRefused) as refused:
        avatars.reencode(SimpleUploadedFile("a.png", out.getvalue()))
    assert refused.value.code == "too_many_pixels"


def test_the_avatar_is_served_as_data_with_nosniff_and_a_closed_csp(
    client: Any, player: Any
) -> None:
    _upload(client, _png())
    profile = services.profile_of(player)
    url = reverse(
        "profiles:avatar", kwargs={"user_id": player.pk, "version": profile.avatar_version}
    )
    response = client.get(url)
    assert response["Content-Type"] == "image/webp"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'none'" in response["Content-Security-Policy"]
    assert "sandbox" in response["Content-Security-Policy"]
    assert "immutable" in response["Cache-Control"]


def test_choosing_a_generated_avatar_drops_the_upload_and_changes_the_address(
    client: Any, player: Any
) -> None:
    _upload(client, _png())
    before = services.profile_of(player).avatar_version
    assert client.post(reverse("profiles:edit_avatar"), {"avatar": "5"}).status_code == 302
    profile = services.profile_of(player)
    assert (profile.avatar, profile.has_upload) == (5, False)
    assert profile.avatar_version > before
    assert not UploadedAvatar.objects.filter(user=player).exists()
    url = reverse(
        "profiles:avatar", kwargs={"user_id": player.pk, "version": profile.avatar_version}
    )
    response = client.get(url)
    assert response["Content-Type"] == "image/svg+xml"
    assert b"<script" not in response.content


def test_a_generated_avatar_outside_the_set_is_refused(client: Any, player: Any) -> None:
    for value in ("12", "-1", "x", ""):
        assert client.post(reverse("profiles:edit_avatar"), {"avatar": value}).status_code == 400


def test_generated_avatars_are_the_same_every_time_and_differ_between_players() -> None:
    assert avatars.generated_svg(1, 3) == avatars.generated_svg(1, 3)
    assert avatars.generated_svg(1, 3) != avatars.generated_svg(2, 3)


def _png_header(width: int, height: int) -> bytes:
    """A PNG that declares its size and holds no pixels: all a decompression bomb needs."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


def test_a_20000_by_20000_png_is_refused_as_too_large_in_pixels_not_as_a_wrong_type(
    client: Any, player: Any
) -> None:
    response = _upload(client, _png_header(20000, 20000))
    assert response.status_code == 400
    page = response.content.decode()
    assert "20000 × 20000" in page
    assert "Hãy gửi ảnh PNG, JPEG, WebP hoặc GIF." not in page  # not the wrong-type message
    with pytest.raises(avatars.AvatarRefused) as refused:
        avatars.reencode(SimpleUploadedFile("a.png", _png_header(20000, 20000)))
    assert (refused.value.code, refused.value.size) == ("too_many_pixels", (20000, 20000))


def test_a_damaged_or_cut_picture_is_called_damaged(client: Any, player: Any) -> None:
    whole = _png((200, 200), "white")
    for broken in (whole[: len(whole) // 2], whole[:8] + b"\x00" * 40):
        with pytest.raises(avatars.AvatarRefused) as refused:
            avatars.reencode(SimpleUploadedFile("a.png", broken))
        assert refused.value.code == "damaged"
    assert "hỏng" in _upload(client, whole[:60]).content.decode()


def test_an_empty_file_is_called_empty() -> None:
    with pytest.raises(avatars.AvatarRefused) as refused:
        avatars.reencode(SimpleUploadedFile("a.png", b""))
    assert refused.value.code == "empty"


def test_a_text_file_gets_the_wrong_type_message(client: Any, player: Any) -> None:
    with pytest.raises(avatars.AvatarRefused) as refused:
        avatars.reencode(SimpleUploadedFile("a.png", b"hello, not a picture"))
    assert refused.value.code == "bad_type"
