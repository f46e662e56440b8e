package dev.seckill.web;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A no-op answer with a tiny body: the ceiling of this stack (Nginx, Tomcat, Spring MVC) on a
 * machine, measured by scripts/bench beside the seckill endpoints. Touches neither Redis nor MySQL.
 */
@RestController
class PingController {

    @GetMapping(value = "/ping", produces = MediaType.TEXT_PLAIN_VALUE)
    String ping() {
        return "pong";
    }
}
