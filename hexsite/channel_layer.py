"""The channel layer: channels_redis's Pub/Sub layer, which also tells the sockets when Redis goes.

Why Pub/Sub (docs/performance-log.md, "Live rooms first"): with channels_redis's list-based layer,
every socket is a member of its game's group, so an announcement is one message per socket, and
all the sockets of a process share one queue in Redis that the process pops one message at a
time. A Hextension submission put 9 messages into that queue in `make load` (100 at a 100-seat
table), and a live Hexland room's announcement waited behind all of a round's: p95 1.3 s from
send to handler in a default run, 79 ms now. With Pub/Sub, a process subscribes once to each
game that has a socket in it; an announcement is one message per process, which the layer
hands to each of its sockets in memory.

What Pub/Sub does not do by itself: a message published while a process's connection to Redis
is broken is lost, and channels_redis 4.3 accepts but never calls the ``on_disconnect`` hook it
documents. So when reading from Redis fails, every socket of the process is sent
``{"type": "channel_layer.lost"}``: the consumer closes, the page reconnects with the stamp it
shows (backing off while Redis is away) and is sent what it missed, as with the list layer,
whose sockets failed with their own reads. Subclasses channels_redis's internals, so the
dependency is pinned to 4.3 (pyproject.toml); tests/platform/test_scale_out_faults.py checks
the behaviour with a real Redis restart.
"""
from __future__ import annotations

import asyncio
import logging

from channels_redis import pubsub
from channels_redis.utils import _wrap_close
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

LOST = {"type": "channel_layer.lost"}


class _Connection(pubsub.RedisSingleShardConnection):
    """One Redis connection of the layer (a shard's), whose failed reads are told to every channel."""

    def _ensure_redis(self):
        fresh = self._redis is None
        super()._ensure_redis()
        if fresh:
            self._pubsub.get_message = self._telling_failures(self._pubsub.get_message)

    def _telling_failures(self, get_message):
        async def get_message_or_tell(*args, **kwargs):
            try:
                return await get_message(*args, **kwargs)
            except (RedisError, OSError) as error:
                self._tell_every_channel(error)
                raise

        return get_message_or_tell

    def _tell_every_channel(self, error: BaseException) -> None:
        layer = self.channel_layer  # this event loop's layer
        if layer.channels:
            logger.warning("channel layer: reading from Redis failed (%s: %s); telling %d sockets",
                           type(error).__name__, error, len(layer.channels))
        lost = layer.channel_layer.serialize(LOST)
        for queue in list(layer.channels.values()):
            queue.put_nowait(lost)


class _LoopLayer(pubsub.RedisPubSubLoopLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._shards = [_Connection(shard.host, self) for shard in self._shards]


class GameChannelLayer(pubsub.RedisPubSubChannelLayer):
    """``RedisPubSubChannelLayer`` whose sockets hear when their process loses Redis."""

    def _get_layer(self):
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)  # the loop's layer is flushed when the loop closes, as upstream
        return layer
