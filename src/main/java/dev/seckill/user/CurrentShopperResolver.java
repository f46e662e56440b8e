package dev.seckill.user;

import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/** Resolves {@link CurrentShopper} from {@code Authorization: Bearer <token>}, or refuses with 401. */
@Component
class CurrentShopperResolver implements HandlerMethodArgumentResolver {

    private static final String BEARER = "Bearer ";

    private final TokenService tokens;

    CurrentShopperResolver(TokenService tokens) {
        this.tokens = tokens;
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == CurrentShopper.class;
    }

    @Override
    public CurrentShopper resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
            NativeWebRequest request, WebDataBinderFactory binderFactory) {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || header.isBlank()) {
            throw new SeckillProblem(ProblemCode.TOKEN_MISSING);
        }
        if (!header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            throw new SeckillProblem(ProblemCode.TOKEN_INVALID, "Expected 'Authorization: Bearer <token>'");
        }
        return new CurrentShopper(tokens.verify(header.substring(BEARER.length()).trim()));
    }
}
