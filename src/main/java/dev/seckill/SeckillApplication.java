package dev.seckill;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration;

/*
 * Without Spring Boot's error page (/error and its controller): an error the container answers (TRACE, a
 * handler's sendError, an exception no handler took) is a problem with a code from dev.seckill.web's
 * ProblemErrorReportValve, not Boot's {"timestamp":...} body; and GET /error is a path like any other (404).
 */
@SpringBootApplication(exclude = ErrorMvcAutoConfiguration.class)
@ConfigurationPropertiesScan
public class SeckillApplication {

    public static void main(String[] args) {
        SpringApplication.run(SeckillApplication.class, args);
    }
}
