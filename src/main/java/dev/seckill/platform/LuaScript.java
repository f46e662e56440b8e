package dev.seckill.platform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.OptionalOptions;
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
    /** 0 for a script whose calls Redisson sends once ({@link #sentOnce}); else null, Redisson's own setting. */
    private final Integer retryAttempts;
    private final String source;
    private volatile String sha;

    public LuaScript(RedissonClient redisson, String resource) {
        this(redisson, resource, null);
    }

    /**
     * A script whose asynchronous calls Redisson sends once and never again by itself: a call that fails then says
     * what happened to that one attempt (its connection could not be made, or its answer never came), which
     * Redisson's own retries hide (their last failure says nothing of the attempts before it). For a caller that
     * retries itself and must know whether any attempt may have run the script.
     */
    public static LuaScript sentOnce(RedissonClient redisson, String resource) {
        return new LuaScript(redisson, resource, 0);
    }

    private LuaScript(RedissonClient redisson, String resource, Integer retryAttempts) {
        this.redisson = redisson;
        this.retryAttempts = retryAttempts;
        this.script = retryAttempts == null ? redisson.getScript(StringCodec.INSTANCE)
                : redisson.getScript(OptionalOptions.defaults().codec(StringCodec.INSTANCE).retryAttempts(retryAttempts));
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

    /** For a script that answers a Lua table of integers and strings, blocking. */
    public List<Object> evalList(List<Object> keys, Object... args) {
        return this.<List<Object>>eval(RScript.ReturnType.LIST, keys, args);
    }

    /** For a script that answers a Lua table of strings. */
    public List<String> evalStrings(List<Object> keys, Object... args) {
        return this.<List<String>>eval(RScript.ReturnType.LIST, keys, args);
    }

    /** What a script answered, and how many replicas confirmed having its writes. */
    public record Replicated<T>(T value, int replicas) {
    }

    /**
     * For a script that answers a Lua table of integers and strings, without blocking the caller: the
     * answer completes on Redisson's thread. Reloads the script and runs it again if Redis forgot it.
     */
    public CompletableFuture<List<Object>> evalListAsync(List<Object> keys, Object... args) {
        return this.<List<Object>>evalShaAsync(keys, args).exceptionallyCompose(error -> {
            if (!(unwrap(error) instanceof RedisNoScriptException)) {
                return CompletableFuture.failedFuture(error);
            }
            return script.scriptLoadAsync(source).toCompletableFuture().thenCompose(loaded -> {
                sha = loaded;
                return evalShaAsync(keys, args);
            });
        });
    }

    /**
     * {@link #evalListAsync}, followed by {@code WAIT replicas timeout} in the same pipelined batch (Redisson's
     * {@link BatchOptions#sync}): one round trip that completes once {@code replicas} replicas have the
     * script's writes, or after {@code timeout} with fewer. A script that wrote nothing leaves the connection's
     * last write to wait for (the WAIT covers everything written on that connection so far).
     */
    public CompletableFuture<Replicated<List<Object>>> evalListReplicatedAsync(int replicas, Duration timeout,
            List<Object> keys, Object... args) {
        return replicatedAsync(replicas, timeout, keys, args).exceptionallyCompose(error -> {
            if (!(unwrap(error) instanceof RedisNoScriptException)) {
                return CompletableFuture.failedFuture(error);
            }
            return script.scriptLoadAsync(source).toCompletableFuture().thenCompose(loaded -> {
                sha = loaded;
                return replicatedAsync(replicas, timeout, keys, args);
            });
        });
    }

    private CompletableFuture<Replicated<List<Object>>> replicatedAsync(int replicas, Duration timeout,
            List<Object> keys, Object... args) {
        BatchOptions options = BatchOptions.defaults().sync(replicas, timeout);
        RBatch batch = redisson.createBatch(retryAttempts == null ? options : options.retryAttempts(retryAttempts));
        RFuture<List<Object>> answer = batch.getScript(StringCodec.INSTANCE).evalShaAsync(RScript.Mode.READ_WRITE, sha,
                RScript.ReturnType.LIST, keys, args);
        return batch.executeAsync().toCompletableFuture()
                .thenCombine(answer.toCompletableFuture(), (done, value) -> new Replicated<>(value, done.getSyncedSlaves()));
    }

    private <T> CompletableFuture<T> evalShaAsync(List<Object> keys, Object... args) {
        return script.<T>evalShaAsync(RScript.Mode.READ_WRITE, sha, RScript.ReturnType.LIST, keys, args)
                .toCompletableFuture();
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
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
