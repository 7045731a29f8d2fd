"""Base classes of serializers: what ``serialize(serializer)`` receives."""


class AbstractSerializer:
    """Visitor that saves or loads the state of objects, key by key.

    ``serializer[key]`` returns a child serializer for a sub-object;
    ``serializer(key, value)`` saves ``value`` (a serializer) or returns the
    loaded value (a deserializer).
    """

    def __getitem__(self, key):
        """Returns a child serializer for the given key."""
        raise NotImplementedError()

    def __call__(self, key, value):
        """Saves or loads a value under the given key."""
        raise NotImplementedError()


class Serializer(AbstractSerializer):
    """Base class of serializers that save values."""

    def save(self, obj):
        """Saves an object by calling its ``serialize`` method.

        Args:
            obj: An object with a ``serialize(serializer)`` method.
        """
        obj.serialize(self)


class Deserializer(AbstractSerializer):
    """Base class of deserializers that load values."""

    def load(self, obj):
        """Loads an object by calling its ``serialize`` method.

        Args:
            obj: An object with a ``serialize(serializer)`` method.
        """
        obj.serialize(self)
