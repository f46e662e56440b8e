# syntax=docker/dockerfile:1
# Image of the seckill platform. Built by docker-compose.yml (app1, app2):
#   docker compose up --build

# ---- build ----
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /build
COPY pom.xml ./
COPY src ./src
COPY db ./db
# the cache mount keeps ~/.m2 between builds (BuildKit, the default builder)
RUN --mount=type=cache,target=/root/.m2 mvn -B -DskipTests package

# ---- run ----
FROM eclipse-temurin:17-jre
RUN groupadd --system seckill && useradd --system --gid seckill --home-dir /app seckill
WORKDIR /app
COPY --from=build /build/target/seckill-platform.jar /app/seckill-platform.jar
USER seckill
EXPOSE 8080
# JVM options: set JAVA_TOOL_OPTIONS (docker-compose.yml does)
ENTRYPOINT ["java", "-jar", "/app/seckill-platform.jar"]
