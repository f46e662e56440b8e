package dev.seckill.shopper.web;

import dev.seckill.shopper.ShopperService;

import java.util.List;
import java.util.stream.Collectors;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/admin/shoppers")
class ShopperAdminController {

    static final MediaType TEXT_CSV = MediaType.parseMediaType("text/csv");

    private final ShopperService shoppers;

    ShopperAdminController(ShopperService shoppers) {
        this.shoppers = shoppers;
    }

    /**
     * Mints test shoppers. JSON by default; with {@code Accept: text/csv}, one token per line, ready
     * for a JMeter CSV Data Set.
     */
    @PostMapping
    ResponseEntity<?> create(@RequestParam(defaultValue = "1") @Min(1) @Max(10_000) int count,
            @RequestHeader(value = HttpHeaders.ACCEPT, required = false) String accept) {
        List<ShopperService.MintedShopper> minted = shoppers.createTestShoppers(count);
        if (wantsCsv(accept)) {
            String body = minted.stream().map(ShopperService.MintedShopper::token)
                    .collect(Collectors.joining("\n", "", "\n"));
            return ResponseEntity.status(HttpStatus.CREATED).contentType(TEXT_CSV).body(body);
        }
        return ResponseEntity.status(HttpStatus.CREATED).contentType(MediaType.APPLICATION_JSON)
                .body(new MintedShoppers(minted.size(), minted));
    }

    /** CSV only when it is the first concrete type the client names; JSON otherwise. */
    private static boolean wantsCsv(String accept) {
        if (accept == null) {
            return false;
        }
        try {
            return MediaType.parseMediaTypes(accept).stream()
                    .filter(type -> !type.isWildcardType())
                    .findFirst()
                    .map(type -> type.isCompatibleWith(TEXT_CSV))
                    .orElse(false);
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }

    record MintedShoppers(int count, List<ShopperService.MintedShopper> shoppers) {
    }
}
