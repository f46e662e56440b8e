-- How much work a shopper's browser must do before it gets a purchase ticket for this voucher: the ALTCHA
-- challenge's largest number (the browser tries about half of them on average). NULL: the instances' default
-- (seckill.tickets.challenge-difficulty); 0: no challenge, the ticket alone.
ALTER TABLE seckill_voucher
    ADD COLUMN challenge_difficulty INT NULL COMMENT 'ALTCHA max number; NULL = default, 0 = no challenge',
    ADD CONSTRAINT chk_seckill_voucher_challenge CHECK (challenge_difficulty IS NULL OR challenge_difficulty >= 0);
