package dev.seckill.web;

import java.beans.PropertyEditorSupport;
import java.util.regex.Pattern;

import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * Numbers in paths and parameters are read in one spelling only: ASCII decimal digits, no leading zero, no plus
 * sign. Spring's own reading also takes {@code 0x10}, {@code #10}, {@code +16}, {@code 016} and digits of other
 * scripts (Arabic-Indic ones among them) as 16: one voucher under many URLs, each its own entry in a cache keyed by
 * the URL (Nginx keeps a room's public state by its canonical URL, and any other spelling would pass it by). Any
 * other spelling is answered 400 {@code invalid-parameter}.
 * <p>
 * Property editors, not a converter: when a converter refuses a value, Spring falls back to its default editors,
 * which take every spelling above; an editor registered for the type is the last word.
 */
@ControllerAdvice
class CanonicalNumbers {

    private static final Pattern DECIMAL = Pattern.compile("0|-?[1-9][0-9]{0,18}");

    @InitBinder
    void canonicalOnly(WebDataBinder binder) {
        binder.registerCustomEditor(long.class, new Editor(false, false));
        binder.registerCustomEditor(Long.class, new Editor(true, false));
        binder.registerCustomEditor(int.class, new Editor(false, true));
        binder.registerCustomEditor(Integer.class, new Editor(true, true));
    }

    /** @throws IllegalArgumentException for any spelling but the canonical one, or beyond a long */
    static long parseLong(String text) {
        if (!DECIMAL.matcher(text).matches()) {
            throw new IllegalArgumentException("\"" + text + "\" is not a number in decimal digits without a leading "
                    + "zero or a sign");
        }
        return Long.parseLong(text);
    }

    private static final class Editor extends PropertyEditorSupport {

        private final boolean nullable;
        private final boolean integer;

        Editor(boolean nullable, boolean integer) {
            this.nullable = nullable;
            this.integer = integer;
        }

        @Override
        public void setAsText(String text) {
            if (nullable && (text == null || text.isEmpty())) {
                setValue(null);
                return;
            }
            long value = parseLong(text == null ? "" : text);
            setValue(integer ? Integer.valueOf(Math.toIntExact(value)) : Long.valueOf(value));
        }
    }
}
