package dev.seckill.shopper;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import dev.seckill.id.IdGenerator;
import dev.seckill.web.security.ShopperTokens;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class ShopperService {

    private final JdbcTemplate jdbc;
    private final IdGenerator ids;
    private final ShopperTokens tokens;
    private final Clock clock;

    ShopperService(JdbcTemplate jdbc, IdGenerator ids, ShopperTokens tokens, Clock clock) {
        this.jdbc = jdbc;
        this.ids = ids;
        this.tokens = tokens;
        this.clock = clock;
    }

    /** Creates test shoppers in one batch and mints a token for each. */
    @Transactional
    public List<MintedShopper> createTestShoppers(int count) {
        Timestamp now = Timestamp.from(clock.instant());
        List<MintedShopper> minted = new ArrayList<>(count);
        List<Object[]> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long id = ids.next();
            rows.add(new Object[] {id, "shopper-" + id, now});
            minted.add(new MintedShopper(id, tokens.issue(id)));
        }
        jdbc.batchUpdate("INSERT INTO shopper (id, nickname, created_at) VALUES (?, ?, ?)", rows);
        return minted;
    }

    public record MintedShopper(long id, String token) {
    }
}
