package dev.seckill.stock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.redisson.api.BatchOptions;
import org.redisson.api.BatchResult;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.codec.StringCodec;
import org.springframework.core.io.ClassPathResource;

/**
 * A Lua script from the classpath, loaded into Redis once and then run by its SHA (EVALSHA), so each
 * call sends 40 bytes instead of the script. Reloaded if Redis forgot it (restart, SCRIPT FLUSH).
 */
public final class LuaScript {

    private final RedissonClient redisson;
    private final RScript script;
    private final String source;
    private volatile String sha;

    public LuaScript(RedissonClient redisson, String resource) {
        this.redisson = redisson;
        this.script = redisson.getScript(StringCodec.INSTANCE);
        try {
            this.source = new ClassPathResource(resource).getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read Lua script " + resource, e);
        }
        this.sha = script.scriptLoad(source);
    }

    public long evalLong(List<Object> keys, Object... args) {
        return this.<Long>eval(RScript.ReturnType.LONG, keys, args);
    }

    /** For a script that answers an integer (a {@code Long} here) or a string, whichever it says. */
    public Object evalValue(List<Object> keys, Object... args) {
        return eval(RScript.ReturnType.VALUE, keys, args);
    }

    /** For a script that answers a Lua table of strings. */
    public List<String> evalStrings(List<Object> keys, Object... args) {
        return this.<List<String>>eval(RScript.ReturnType.LIST, keys, args);
    }

    /** What a script answered, and how many replicas confirmed having its writes. */
    public record Replicated(Object value, int replicas) {
    }

    /**
     * {@link #evalValue}, followed by {@code WAIT replicas timeout} in the same pipelined batch (Redisson's
     * {@link BatchOptions#sync}): one round trip that returns once {@code replicas} replicas have the
     * script's writes, or after {@code timeout} with fewer. A script that wrote nothing leaves the connection's
     * last write to wait for (the WAIT covers everything written on that connection so far).
     */
    public Replicated evalValueReplicated(int replicas, Duration timeout, List<Object> keys, Object... args) {
        try {
            return replicated(replicas, timeout, keys, args);
        } catch (RedisNoScriptException e) {
            sha = script.scriptLoad(source);
            return replicated(replicas, timeout, keys, args);
        }
    }

    private Replicated replicated(int replicas, Duration timeout, List<Object> keys, Object... args) {
        RBatch batch = redisson.createBatch(BatchOptions.defaults().sync(replicas, timeout));
        RFuture<Object> answer = batch.getScript(StringCodec.INSTANCE).evalShaAsync(RScript.Mode.READ_WRITE, sha,
                RScript.ReturnType.VALUE, keys, args);
        BatchResult<?> done = batch.execute();
        return new Replicated(answer.toCompletableFuture().join(), done.getSyncedSlaves());
    }

    private <T> T eval(RScript.ReturnType returns, List<Object> keys, Object... args) {
        try {
            return script.<T>evalSha(RScript.Mode.READ_WRITE, sha, returns, keys, args);
        } catch (RedisNoScriptException e) {
            sha = script.scriptLoad(source);
            return script.<T>evalSha(RScript.Mode.READ_WRITE, sha, returns, keys, args);
        }
    }
}
