package dev.seckill;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationExcludeFilter;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.modulith.Modulithic;

/*
 * Without Spring Boot's error page (/error and its controller): an error the container answers (TRACE, a
 * handler's sendError, an exception no handler took) is a problem with a code from dev.seckill.web's
 * ProblemErrorReportValve, not Boot's {"timestamp":...} body; and GET /error is a path like any other (404).
 *
 * @SpringBootApplication spelled out, for one more filter: the packages of the other applications in this source tree
 * (OtherApplications) are not part of this one, though their classes sit beside it in the build's output and in tests.
 * @Modulithic: the root Spring Modulith takes the modules from, which @SpringBootApplication was.
 */
@SpringBootConfiguration
@EnableAutoConfiguration(exclude = ErrorMvcAutoConfiguration.class)
@ComponentScan(excludeFilters = {@ComponentScan.Filter(type = FilterType.CUSTOM, classes = TypeExcludeFilter.class),
        @ComponentScan.Filter(type = FilterType.CUSTOM, classes = AutoConfigurationExcludeFilter.class),
        @ComponentScan.Filter(type = FilterType.CUSTOM, classes = OtherApplications.class)})
@ConfigurationPropertiesScan
@Modulithic
public class SeckillApplication {

    public static void main(String[] args) {
        SpringApplication.run(SeckillApplication.class, args);
    }
}
