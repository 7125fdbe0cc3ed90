"""What carries messages between the server's processes, and where what they share is kept.

- :mod:`.broker`: the :class:`~.broker.Broker` ("game G changed", presence reports, chat) and
  its in-process :class:`~.broker.MemoryBroker`; :func:`~.broker.make_broker` of ``--broker``;
- :mod:`.presence`: :class:`~.presence.Presence`, which seats have a live socket open;
- :mod:`.redis_broker`: the broker between processes and hosts, on Redis publish/subscribe;
- :mod:`.queue` and :mod:`.redis_queue`: the queue of "Play now", in memory or in Redis;
- :mod:`.windows`: the abuse limits' counters in memory (with Redis, they are in Redis);
- :mod:`.redis_client`: :class:`~.redis_client.RedisClients`, the one place a process connects
  to Redis (its broker, its queue and its limits share the clients).
"""
