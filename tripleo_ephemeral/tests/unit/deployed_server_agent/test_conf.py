import configparser

from tripleo_ephemeral.deployed_server_agent import conf


def test_render_conf_reads_back():
    parsed = configparser.ConfigParser(interpolation=None)
    parsed.read_string(conf.render_conf(
        'http://h:8080/v1/x?temp_url_sig=a%2Fb&temp_url_expires=1', 10))
    assert parsed['DEFAULT']['collectors'] == 'request'
    assert parsed['DEFAULT']['polling_interval'] == '10'
    assert parsed['DEFAULT']['command'] == 'os-refresh-config'
    assert parsed['request']['metadata_url'].endswith(
        'a%2Fb&temp_url_expires=1')
