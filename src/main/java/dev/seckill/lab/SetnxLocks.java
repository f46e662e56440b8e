package dev.seckill.lab;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.seckill.platform.LuaScript;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The hand-made Redis locks of articles 001, 003 and 004, as they wrote them: SETNX and SET NX PX, retried every
 * {@code spin} until {@code wait}, released by a plain DEL or by the articles' Lua compare-and-delete. Three of the
 * four are the articles' mistakes, on purpose.
 */
final class SetnxLocks {

    private final LabSettings settings;
    private final LuaScript deleteAny;
    private final LuaScript deleteOwn;

    SetnxLocks(RedissonClient firstNode, LabSettings settings) {
        this.settings = settings;
        this.deleteAny = new LuaScript(firstNode, "lab/release-any.lua");
        this.deleteOwn = new LuaScript(firstNode, "lab/release-own.lua");
    }

    LabLock lock(Strategy strategy, RedissonClient node, String name) {
        return wait -> {
            RBucket<String> lock = node.getBucket(name, StringCodec.INSTANCE);
            String value = UUID.randomUUID().toString();
            boolean expiring = strategy == Strategy.SET_NX_PX || strategy == Strategy.SET_NX_PX_OWNER_LUA;
            long deadline = System.nanoTime() + wait.toNanos();
            while (!(expiring ? lock.setIfAbsent(value, settings.lease()) : lock.setIfAbsent(value))) {
                if (System.nanoTime() - deadline >= 0) {
                    return null;
                }
                Thread.sleep(settings.spin().toMillis());
            }
            return new SetnxHold(strategy, lock, name, value);
        };
    }

    private final class SetnxHold implements Hold {

        private final Strategy strategy;
        private final RBucket<String> lock;
        private final String name;
        private final String value;

        SetnxHold(Strategy strategy, RBucket<String> lock, String name, String value) {
            this.strategy = strategy;
            this.lock = lock;
            this.name = name;
            this.value = value;
        }

        /** 001's 方案2: the expiry in a command of its own, after the lock was taken. */
        @Override
        public void afterAcquire() {
            if (strategy == Strategy.SETNX_THEN_EXPIRE) {
                lock.expire(settings.lease());
            }
        }

        @Override
        public Release release() {
            if (strategy == Strategy.SET_NX_PX_OWNER_LUA) {
                return deleteOwn.evalLong(List.of(name), value) == 1 ? Release.RELEASED : Release.NOT_HELD;
            }
            // A plain DEL, as the articles' first three wrote it; the script only also says whose lock it deleted.
            long deleted = deleteAny.evalLong(List.of(name), value);
            return deleted == 1 ? Release.RELEASED : deleted == 2 ? Release.DELETED_ANOTHERS : Release.NOT_HELD;
        }
    }
}
