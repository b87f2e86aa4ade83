from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema


class AutoSchema(SpectacularAutoSchema):
    """Names components after their view: every APIView nests its own `InputSerializer`, and the
    plain class names would collide (`AssetListView.InputSerializer` → `AssetListInput`)."""

    def get_serializer_name(self, serializer, direction):
        qualname = serializer.__class__.__qualname__
        if "." not in qualname:
            return super().get_serializer_name(serializer, direction)
        outer, _, inner = qualname.rpartition(".")
        return outer.replace(".", "").removesuffix("View") + inner
