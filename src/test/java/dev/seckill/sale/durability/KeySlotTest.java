package dev.seckill.sale.durability;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The slots Redis's own documentation gives for CLUSTER KEYSLOT; RedisClusterIT compares more with a real cluster. */
class KeySlotTest {

    @Test
    void computesTheSlotsRedisDocuments() {
        assertThat(KeySlot.of("somekey")).isEqualTo(11058);
        assertThat(KeySlot.of("foo{hash_tag}")).isEqualTo(2515);
    }

    @Test
    void hashesOnlyTheTagWhenThereIsOne() {
        assertThat(KeySlot.of("seckill:{42}:stock")).isEqualTo(KeySlot.of("42")).isEqualTo(KeySlot.of("seckill:{42}:buyers"));
        // the rules of the Redis Cluster specification: the first "{" and the next "}", and only a non-empty tag
        assertThat(KeySlot.of("foo{{bar}}zap")).isEqualTo(KeySlot.of("{bar"));
        assertThat(KeySlot.of("foo{bar}{zap}")).isEqualTo(KeySlot.of("bar"));
        assertThat(KeySlot.of("foo{}{bar}")).isNotEqualTo(KeySlot.of("bar"));
    }
}
