package dev.seckill.web;

import java.beans.PropertyEditorSupport;
import java.util.Arrays;
import java.util.regex.Pattern;

import org.springframework.boot.webmvc.autoconfigure.WebMvcRegistrations;
import org.springframework.stereotype.Component;
import org.springframework.beans.PropertyEditorRegistrar;
import org.springframework.beans.PropertyEditorRegistry;
import org.springframework.web.bind.support.ConfigurableWebBindingInitializer;
import org.springframework.web.bind.support.WebBindingInitializer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

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
@Component
class CanonicalNumbers implements WebMvcRegistrations {

    private static final Pattern DECIMAL = Pattern.compile("0|-?[1-9][0-9]{0,18}");

    /**
     * Spring MVC's own adapter, the editors registered by the binding initializer Spring Boot gives it, with whatever
     * else it registers. An {@code @InitBinder} method would do the same by reflection for every binder of every
     * request (a purchase has three: its id and two headers). The initializer is added to, not wrapped: the adapter
     * finds the validator for method validation ({@code @Positive} on a path variable) on it.
     */
    @Override
    public RequestMappingHandlerAdapter getRequestMappingHandlerAdapter() {
        return new RequestMappingHandlerAdapter() {
            @Override
            public void setWebBindingInitializer(WebBindingInitializer initializer) {
                if (!(initializer instanceof ConfigurableWebBindingInitializer configurable)) {
                    throw new IllegalStateException("Expected Spring MVC's ConfigurableWebBindingInitializer, not "
                            + initializer);
                }
                PropertyEditorRegistrar[] before = configurable.getPropertyEditorRegistrars();
                PropertyEditorRegistrar[] registrars = before == null ? new PropertyEditorRegistrar[1]
                        : Arrays.copyOf(before, before.length + 1);
                registrars[registrars.length - 1] = CanonicalNumbers::canonicalOnly;
                configurable.setPropertyEditorRegistrars(registrars);
                super.setWebBindingInitializer(configurable);
            }
        };
    }

    static void canonicalOnly(PropertyEditorRegistry binder) {
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
