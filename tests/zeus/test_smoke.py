def test_profile_is_created_with_vnd_and_saigon_time(alice):
    assert alice.profile.currency == "VND"
    assert alice.profile.timezone == "Asia/Ho_Chi_Minh"
